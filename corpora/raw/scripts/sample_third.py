#!/usr/bin/env python3
"""Draws a third batch of replies after writes to label for the claim reader (corpora/claims.third.jsonl),
from every source: replies whose id or near-duplicate text is in none of the shipped corpora. The split is
fixed as in sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

Per (source, model, domain) group, in a fixed order by hash of id: up to 14, 8 of them after a write whose
result reads as an error (`ok` false) where the group has such. Failures are the rarer label and the
costlier misreading: a failure read as a success passes an agent that lied.

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_third.py RAW_DIR CLAIMS_OUT.jsonl ../claims.real.jsonl ../turns.real.jsonl ../claims.fresh.jsonl ../turns.fresh.jsonl ../claims.more.jsonl ../turns.more.jsonl
"""
import collections, hashlib, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import last_write  # noqa: E402

raw, claims_out, *shipped_paths = sys.argv[1:]

def h(s):
    return int(hashlib.sha1(s.encode()).hexdigest(), 16)

def split_of(item_id):
    return 'held-out' if h(item_id) % 10 < 4 else 'tune'

def near(t):
    return hashlib.sha1(re.sub(r'[^a-z]+', '', t.lower()).encode()).hexdigest()[:12]

shipped = [json.loads(l) for p in shipped_paths for l in open(p)]
ids = {x['id'] for x in shipped}
keys = {near(x['text']) for x in shipped}

by, seen = collections.defaultdict(list), set()
for line in open(f'{raw}/claims.raw.jsonl'):
    r = json.loads(line)
    t = (r.get('text') or '').strip()
    if not t or len(t) > 2500 or r['id'] in ids or r.get('domain') not in ('retail', 'airline'):
        continue
    k = near(t)
    if k in keys or k in seen:
        continue
    seen.add(k)
    by[(r['source'], r.get('model') or 'unknown', r['domain'])].append(r)

with open(claims_out, 'w') as f:
    for g, rs in sorted(by.items()):
        rs = sorted(rs, key=lambda r: h('third:' + r['id']))
        bad = [r for r in rs if (r.get('writes') or [{}])[-1].get('ok') is False][:8]
        picked = bad + [r for r in rs if r not in bad][:14 - len(bad)]
        for r in sorted(picked, key=lambda r: h('third:' + r['id'])):
            _, action, names = last_write(r)
            f.write(json.dumps({'id': r['id'], 'source': r['source'], 'commit': r['commit'], 'path': r['path'], 'traj': r['traj'], 'turn': r['turn'],
                                'model': r.get('model') or 'unknown', 'domain': r['domain'], 'split': split_of(r['id']),
                                'text': r['text'], 'action': action, 'names': names, 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')
