#!/usr/bin/env python3
"""Draws a seventeenth batch to label, from what the sixteenth left of the episodes the sources scored 0 (where a failure told to
the user is likeliest): per source, model and domain, up to 20 replies after writes from such episodes and any left after a
write whose result reads as an error, none of them in a shipped corpus by id or near-duplicate text. Nothing of the reader's is
used to choose. The split is fixed as in sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_seventeenth.py RAW_DIR CLAIMS_OUT.jsonl ../claims.*.jsonl
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import hash_of, last_write, new_groups, provenance, shipped_keys  # noqa: E402

NAME = 'seventeenth:'
raw, out, *shipped = sys.argv[1:]
ids, keys = shipped_keys(shipped)
n = 0
with open(out, 'w') as f:
    for rs in new_groups(f'{raw}/claims.raw.jsonl', ids, keys, NAME).values():
        bad = [r for r in rs if (r.get('writes') or [{}])[-1].get('ok') is False]
        zero = [r for r in rs if r not in bad and r.get('episode_reward') == 0][:20]
        for r in sorted(bad + zero, key=lambda r: hash_of(NAME + r['id'])):
            _, action, names = last_write(r)
            f.write(json.dumps({**provenance(r), 'text': r['text'], 'action': action, 'names': names, 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')
            n += 1
print('claims', n)
