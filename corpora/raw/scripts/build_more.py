#!/usr/bin/env python3
"""Joins the hand labels of the second batch (sample_more.py) with its items and their provenance into
corpora/claims.more.jsonl and corpora/turns.more.jsonl, in the formats of claims.real.jsonl and
turns.real.jsonl. Labels are JSON lines keyed by `id`; an item without a valid label is left out.

    python3 raw/scripts/build_more.py CLAIMS_TODO CLAIM_LABELS... -- TURNS_TODO TURN_LABELS...    # from corpora/
"""
import json, sys

args = sys.argv[1:]
cut = args.index('--')
PROV = ('id', 'source', 'commit', 'path', 'traj', 'turn', 'model', 'domain')

def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]

def labels(paths):
    return {r['id']: r for p in paths for r in load(p)}

claims, cl = load(args[0]), labels(args[1:cut])
with open('claims.more.jsonl', 'w') as f:
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

turns, tl = load(args[cut + 1]), labels(args[cut + 2:])
with open('turns.more.jsonl', 'w') as f:
    n = 0
    for it in turns:
        l = tl.get(it['id'])
        if not l or 'asks' not in l:
            continue
        expect = {k: l.get(k) for k in ('asks', 'identity', 'details', 'goAhead', 'proposes', 'choice', 'progress')}
        if l.get('goAhead') and l.get('proposes'):
            expect['alsoProposes'] = l.get('alsoProposes') or []
        row = {'text': it['text'], 'expect': expect, 'split': it['split'], 'user_before': it.get('user_before'), **{k: it[k] for k in PROV}}
        if l.get('unsure'):
            row['unsure'] = True
        f.write(json.dumps(row, ensure_ascii=False) + '\n')
        n += 1
    print('turns', n, 'of', len(turns))
