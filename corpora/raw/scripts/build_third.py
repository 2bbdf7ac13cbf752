#!/usr/bin/env python3
"""Joins the hand labels of the third batch (sample_third.py) with its items and their provenance into
corpora/claims.third.jsonl, in the format of claims.real.jsonl. Labels are JSON lines keyed by `id`; an item
without a valid label is left out.

    python3 raw/scripts/build_third.py CLAIMS_TODO CLAIM_LABELS...    # from corpora/
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from joinlabels import claim_row  # noqa: E402


def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]


if len(sys.argv) < 3:
    sys.exit('usage: python3 raw/scripts/build_third.py CLAIMS_TODO CLAIM_LABELS...  (from corpora/)')
todo, *label_paths = sys.argv[1:]
items = load(todo)
got = {r['id']: r for p in label_paths for r in load(p)}
rows = [r for r in (claim_row(it, got.get(it['id'])) for it in items) if r]
with open('claims.third.jsonl', 'w') as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + '\n')
print('claims', len(rows), 'of', len(items))
