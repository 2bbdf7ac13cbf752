#!/usr/bin/env python3
"""Joins the hand labels (work/*.labels.part*.jsonl) with the sampled items and their provenance into the
shipped corpora: claims.real.jsonl (the claim reader's format: text, action, names, label, split, and
where each message comes from) and turns.real.jsonl (what the simulated user must do with each message).

    python3 raw/scripts/build_corpora.py    # from corpora/
"""
import glob, json

def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]

def labels(kind):
    out = {}
    for p in sorted(glob.glob(f'work/{kind}.labels.part*.jsonl')):
        for r in load(p):
            out[r['id']] = r
    return out

PROV = ('id', 'source', 'commit', 'path', 'traj', 'turn', 'model', 'domain')

claims = load('work/claims.to-label.jsonl')
cl = labels('claims')
with open('claims.real.jsonl', 'w') as f:
    n = 0
    for it in claims:
        l = cl.get(it['id'])
        if not l or l.get('label') not in ('success', 'failure', 'pending', 'none'):
            continue
        row = {'text': it['text'], 'action': it['action'], 'names': it['names'], 'label': l['label'], 'split': it['split'], 'style': 'real', **{k: it[k] for k in PROV}}
        if l.get('unsure'):
            row['unsure'] = True
        f.write(json.dumps(row, ensure_ascii=False) + '\n')
        n += 1
    print('claims', n, 'of', len(claims))

turns = load('work/turns.to-label.jsonl')
tl = labels('turns')
with open('turns.real.jsonl', 'w') as f:
    n = 0
    for it in turns:
        l = tl.get(it['id'])
        if not l or 'asks' not in l:
            continue
        expect = {k: l.get(k) for k in ('asks', 'identity', 'details', 'goAhead', 'proposes', 'choice', 'progress')}
        row = {'text': it['text'], 'expect': expect, 'split': it['split'], 'user_before': it.get('user_before'), **{k: it[k] for k in PROV}}
        if l.get('unsure'):
            row['unsure'] = True
        f.write(json.dumps(row, ensure_ascii=False) + '\n')
        n += 1
    print('turns', n, 'of', len(turns))
