#!/usr/bin/env python3
"""Joins the hand labels of a later batch with its items and their provenance: the replies after writes
(sample_third.py, sample_fourth.py) into corpora/claims.BATCH.jsonl, and with --turns the agent turns
(sample_third_turns.py, sample_fourth.py) into corpora/turns.BATCH.jsonl, in the formats of claims.real.jsonl
and turns.real.jsonl. BATCH is `third` unless --batch names another. Labels are JSON lines keyed by `id`; an
item without a valid label is left out.

    python3 raw/scripts/build_third.py CLAIMS_TODO CLAIM_LABELS...            # from corpora/
    python3 raw/scripts/build_third.py --turns TURNS_TODO TURN_LABELS...
    python3 raw/scripts/build_third.py --batch fourth [--turns] TODO LABELS...
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from joinlabels import claim_row, load, turn_row, write_joined  # noqa: E402

args = sys.argv[1:]
batch = 'third'
if args[:1] == ['--batch'] and len(args) > 1:
    batch, args = args[1], args[2:]
turns = bool(args) and args[0] == '--turns'
if turns:
    args = args[1:]
if len(args) < 2:
    sys.exit('usage: python3 raw/scripts/build_third.py [--batch NAME] [--turns] TODO LABELS...  (from corpora/)')
todo, *label_paths = args
items = load(todo)
got = {r['id']: r for p in label_paths for r in load(p)}
name, row = ('turns', lambda it, l: turn_row(it, l, also=True)) if turns else ('claims', claim_row)
write_joined(name, f'{name}.{batch}.jsonl', items, got, row)
