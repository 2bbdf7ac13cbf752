#!/usr/bin/env python3
"""Draws a fourth batch to label, after the third batch's round of tuning: replies after writes for the claim
reader (corpora/claims.fourth.jsonl) and replies to the user for the simulated user's reading
(corpora/turns.fourth.jsonl), from every source, whose id or near-duplicate text is in none of the shipped
corpora. The split is fixed as in sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

Per (source, model, domain) group, in a fixed order by hash of id: up to 8 replies after writes, 5 of them
after a write whose result reads as an error where the group has such; up to 8 replies to the user, 5 of
them with go-ahead words.

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_fourth.py RAW_DIR CLAIMS_OUT.jsonl TURNS_OUT.jsonl ../claims.*.jsonl ../turns.*.jsonl
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import hash_of as h, last_write, new_groups, proposing, provenance, shipped_keys  # noqa: E402

raw, claims_out, turns_out, *shipped_paths = sys.argv[1:]
ids, keys = shipped_keys(shipped_paths)

with open(claims_out, 'w') as f:
    for rs in new_groups(f'{raw}/claims.raw.jsonl', ids, keys, 'fourth:').values():
        bad = [r for r in rs if (r.get('writes') or [{}])[-1].get('ok') is False][:5]
        picked = bad + [r for r in rs if r not in bad][:8 - len(bad)]
        for r in sorted(picked, key=lambda r: h('fourth:' + r['id'])):
            _, action, names = last_write(r)
            f.write(json.dumps({**provenance(r), 'text': r['text'], 'action': action, 'names': names, 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')

with open(turns_out, 'w') as f:
    for rs in new_groups(f'{raw}/turns.raw.jsonl', ids, keys, 'fourth-turns:').values():
        for r in [x for x in rs if proposing(x)][:5] + [x for x in rs if not proposing(x)][:3]:
            f.write(json.dumps({**provenance(r), 'text': r['text'], 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')
