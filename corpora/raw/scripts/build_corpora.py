#!/usr/bin/env python3
"""Joins the hand labels (work/*.labels.part*.jsonl) with the sampled items and their provenance into the
shipped corpora: claims.real.jsonl (the claim reader's format: text, action, names, label, split, and
where each message comes from) and turns.real.jsonl (what the simulated user must do with each message).

    python3 raw/scripts/build_corpora.py    # from corpora/
"""
import glob, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from joinlabels import claim_row, load, turn_row, write_joined  # noqa: E402

def labels(kind):
    out = {}
    for p in sorted(glob.glob(f'work/{kind}.labels.part*.jsonl')):
        for r in load(p):
            out[r['id']] = r
    return out

claims = load('work/claims.to-label.jsonl')
cl = labels('claims')
write_joined('claims', 'claims.real.jsonl', claims, cl, claim_row)

turns = load('work/turns.to-label.jsonl')
tl = labels('turns')
write_joined('turns', 'turns.real.jsonl', turns, tl, turn_row)
