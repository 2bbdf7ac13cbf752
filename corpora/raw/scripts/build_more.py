#!/usr/bin/env python3
"""Joins the hand labels of the second batch (sample_more.py) with its items and their provenance into
corpora/claims.more.jsonl and corpora/turns.more.jsonl, in the formats of claims.real.jsonl and
turns.real.jsonl. Labels are JSON lines keyed by `id`; an item without a valid label is left out.

    python3 raw/scripts/build_more.py CLAIMS_TODO CLAIM_LABELS... -- TURNS_TODO TURN_LABELS...    # from corpora/
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from joinlabels import claim_row, load, turn_row, write_joined  # noqa: E402


args = sys.argv[1:]
cut = args.index('--')


def labels(paths):
    return {r['id']: r for p in paths for r in load(p)}


for name, items, got, row in (('claims', load(args[0]), labels(args[1:cut]), claim_row),
                              ('turns', load(args[cut + 1]), labels(args[cut + 2:]), lambda it, l: turn_row(it, l, also=True))):
    write_joined(name, f'{name}.more.jsonl', items, got, row)
