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
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import hash_of as h, last_write, new_groups, provenance, shipped_keys  # noqa: E402

raw, claims_out, *shipped_paths = sys.argv[1:]

ids, keys = shipped_keys(shipped_paths)

with open(claims_out, 'w') as f:
    for rs in new_groups(f'{raw}/claims.raw.jsonl', ids, keys, 'third:').values():
        bad = [r for r in rs if (r.get('writes') or [{}])[-1].get('ok') is False][:8]
        picked = bad + [r for r in rs if r not in bad][:14 - len(bad)]
        for r in sorted(picked, key=lambda r: h('third:' + r['id'])):
            _, action, names = last_write(r)
            f.write(json.dumps({**provenance(r), 'text': r['text'], 'action': action, 'names': names, 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')
