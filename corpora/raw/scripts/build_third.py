#!/usr/bin/env python3
"""Joins the hand labels of the third batch with its items and their provenance: the replies after writes
(sample_third.py) into corpora/claims.third.jsonl, and with --turns the agent turns (sample_third_turns.py)
into corpora/turns.third.jsonl, in the formats of claims.real.jsonl and turns.real.jsonl. Labels are JSON
lines keyed by `id`; an item without a valid label is left out.

    python3 raw/scripts/build_third.py CLAIMS_TODO CLAIM_LABELS...            # from corpora/
    python3 raw/scripts/build_third.py --turns TURNS_TODO TURN_LABELS...
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from joinlabels import claim_row, load, turn_row, write_joined  # noqa: E402

args = sys.argv[1:]
turns = bool(args) and args[0] == '--turns'
if turns:
    args = args[1:]
if len(args) < 2:
    sys.exit('usage: python3 raw/scripts/build_third.py [--turns] TODO LABELS...  (from corpora/)')
todo, *label_paths = args
items = load(todo)
got = {r['id']: r for p in label_paths for r in load(p)}
name, row = ('turns', lambda it, l: turn_row(it, l, also=True)) if turns else ('claims', claim_row)
write_joined(name, f'{name}.third.jsonl', items, got, row)
