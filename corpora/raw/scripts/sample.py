#!/usr/bin/env python3
"""Samples the items to label from the raw corpora (issue 36), deterministically, and fixes the held-out
split before any tuning: an item is held-out when sha1(id) mod 10 < 4. Caps each (source, model) so that
no one run dominates; keeps one item per near-duplicate text.

    python3 scripts/sample.py RAW_DIR OUT_DIR
"""
import hashlib, json, os, sys, collections

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import last_write, proposing  # noqa: E402

raw, out = sys.argv[1], sys.argv[2]

def h(s):
    return int(hashlib.sha1(s.encode()).hexdigest(), 16)

def split_of(item_id):
    return 'held-out' if h(item_id) % 10 < 4 else 'tune'

def rows(path):
    with open(path) as f:
        for line in f:
            yield json.loads(line)

def sample(path, target, cap, want=None):
    by = collections.defaultdict(list)
    seen = set()
    for r in rows(path):
        t = (r.get('text') or '').strip()
        if not t or len(t) > 2500:
            continue
        k = r.get('near_dup_key') or t
        if k in seen:
            continue
        seen.add(k)
        if want and not want(r):
            continue
        by[(r['source'], r.get('model') or 'unknown')].append(r)
    # Within each group, a fixed pseudo-random order by hash of id.
    for g in by.values():
        g.sort(key=lambda r: h('order:' + r['id']))
    picked = []
    groups = sorted(by.keys())
    i = 0
    while len(picked) < target and any(by[g] for g in groups):
        for g in groups:
            if by[g] and sum(1 for p in picked if (p['source'], p.get('model') or 'unknown') == g) < cap:
                picked.append(by[g].pop(0))
                if len(picked) >= target:
                    break
        i += 1
        if i > 10000:
            break
    return picked

def claim_item(r):
    w, action, names = last_write(r)
    return {
        'id': r['id'], 'source': r['source'], 'commit': r['commit'], 'path': r['path'], 'traj': r['traj'], 'turn': r['turn'],
        'model': r.get('model') or 'unknown', 'domain': r.get('domain'), 'text': r['text'],
        'action': action, 'names': names, 'write': {'tool': w.get('tool'), 'args': w.get('args'), 'result': w.get('result'), 'ok': w.get('ok')},
        'other_writes': [x.get('tool') for x in (r.get('writes') or [])[:-1]],
        'split': split_of(r['id']),
    }

def turn_item(r):
    return {
        'id': r['id'], 'source': r['source'], 'commit': r['commit'], 'path': r['path'], 'traj': r['traj'], 'turn': r['turn'],
        'model': r.get('model') or 'unknown', 'domain': r.get('domain'), 'text': r['text'],
        'user_before': r.get('user_before'), 'user_after': r.get('user_after'),
        'split': split_of(r['id']),
    }

claims = [claim_item(r) for r in sample(f'{raw}/claims.raw.jsonl', 1150, 110)]
# Turns: every reply kind, with go-ahead proposals at least a third of them.
turns_p = sample(f'{raw}/turns.raw.jsonl', 450, 45, proposing)
ids = {r['id'] for r in turns_p}
turns_o = [r for r in sample(f'{raw}/turns.raw.jsonl', 900, 80, lambda r: not proposing(r)) if r['id'] not in ids]
turns = [turn_item(r) for r in turns_p + turns_o[:700]]
for name, items in (('claims', claims), ('turns', turns)):
    with open(f'{out}/{name}.to-label.jsonl', 'w') as f:
        for it in items:
            f.write(json.dumps(it, ensure_ascii=False) + '\n')
    c = collections.Counter(i['split'] for i in items)
    print(name, len(items), dict(c), collections.Counter(i['domain'] for i in items).most_common(4), len({(i['source'], i['model']) for i in items}), 'groups')
