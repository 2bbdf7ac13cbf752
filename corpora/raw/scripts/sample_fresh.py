#!/usr/bin/env python3
"""Draws second held-out sets (corpora/claims.fresh.jsonl, corpora/turns.fresh.jsonl) from three sources,
after the readers had been tuned: replies whose id or near-duplicate text is in neither shipped corpus, 14
per (source, model, domain) in a fixed order by hash of id; of the turns, 9 that ask for a go-ahead in so
many words and 5 others per group. None of them was read while tuning.

    python3 scripts/extract_tau.py RAW_DIR    # with at least these three mirrors
    python3 scripts/sample_fresh.py RAW_DIR ../claims.real.jsonl ../turns.real.jsonl CLAIMS_OUT.jsonl [TURNS_OUT.jsonl]
"""
import collections, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import hash_of as h, last_write, near_text as near, proposing, shipped_keys  # noqa: E402

raw, claims_path, turns_path, out_path = sys.argv[1:5]
SOURCES = {'ShramanPramanick/Grok_tau_Bench', 'bogoliubon/tau2-bench', 'codesque16/tau2-bench'}

ids, keys = shipped_keys((claims_path, turns_path))

def groups(path):
    """The new replies of the three sources, one per near-duplicate text, by (source, model, domain), each
    group in a fixed order by hash of id."""
    by, seen = collections.defaultdict(list), set()
    for line in open(path):
        r = json.loads(line)
        t = (r.get('text') or '').strip()
        if r['source'] not in SOURCES or not t or len(t) > 2500 or r['id'] in ids or r.get('domain') not in ('retail', 'airline'):
            continue
        k = r.get('near_dup_key') or near(t)
        if k in keys or k in seen:
            continue
        seen.add(k)
        by[(r['source'], r.get('model') or 'unknown', r['domain'])].append(r)
    return {g: sorted(rs, key=lambda r: h('fresh:' + r['id'])) for g, rs in sorted(by.items())}

by = groups(f'{raw}/claims.raw.jsonl')
with open(out_path, 'w') as f:
    for rs in by.values():
        for r in rs[:14]:
            _, action, names = last_write(r)
            f.write(json.dumps({'id': r['id'], 'source': r['source'], 'commit': r['commit'], 'path': r['path'], 'traj': r['traj'], 'turn': r['turn'], 'model': r.get('model') or 'unknown', 'domain': r['domain'], 'text': r['text'], 'action': action, 'names': names, 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')

if len(sys.argv) > 5:
    by = groups(f'{raw}/turns.raw.jsonl')
    with open(sys.argv[5], 'w') as f:
        for ordered in by.values():
            for r in [x for x in ordered if proposing(x)][:9] + [x for x in ordered if not proposing(x)][:5]:
                f.write(json.dumps({'id': r['id'], 'source': r['source'], 'commit': r['commit'], 'path': r['path'], 'traj': r['traj'], 'turn': r['turn'], 'model': r.get('model') or 'unknown', 'domain': r['domain'], 'text': r['text'], 'user_before': r.get('user_before'), 'user_after': r.get('user_after')}, ensure_ascii=False) + '\n')
