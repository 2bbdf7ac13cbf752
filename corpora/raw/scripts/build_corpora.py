#!/usr/bin/env python3
"""Joins the hand labels (work/*.labels.part*.jsonl) with the sampled items and their provenance into the
shipped corpora: claims.real.jsonl (the claim reader's format: text, action, names, label, split, and
where each message comes from) and turns.real.jsonl (what the simulated user must do with each message).

    python3 raw/scripts/build_corpora.py    # from corpora/
"""
import glob, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from joinlabels import claim_row, turn_row  # noqa: E402

def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]

def labels(kind):
    out = {}
    for p in sorted(glob.glob(f'work/{kind}.labels.part*.jsonl')):
        for r in load(p):
            out[r['id']] = r
    return out

claims = load('work/claims.to-label.jsonl')
cl = labels('claims')
rows = [r for r in (claim_row(it, cl.get(it['id'])) for it in claims) if r]
with open('claims.real.jsonl', 'w') as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + '\n')
print('claims', len(rows), 'of', len(claims))

turns = load('work/turns.to-label.jsonl')
tl = labels('turns')
rows = [r for r in (turn_row(it, tl.get(it['id'])) for it in turns) if r]
with open('turns.real.jsonl', 'w') as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + '\n')
print('turns', len(rows), 'of', len(turns))
