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
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import new_groups, shipped_keys, write_claims  # noqa: E402

raw, claims_out, *shipped_paths = sys.argv[1:]

ids, keys = shipped_keys(shipped_paths)

with open(claims_out, 'w') as f:
    write_claims(f, new_groups(f'{raw}/claims.raw.jsonl', ids, keys, 'third:'), 'third:', 8, 14)
