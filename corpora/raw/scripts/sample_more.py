#!/usr/bin/env python3
"""Draws a second batch of items to label for both corpora (corpora/claims.more.jsonl, turns.more.jsonl),
from every source: replies whose id or near-duplicate text is in none of the shipped corpora. The split is
fixed as in sample.py, before anything is read (held-out when sha1(id) mod 10 < 4), so the batch adds to the
tune split and gives a held-out part of its own.

Per (source, model, domain) group, in a fixed order by hash of id:
  claims: up to 12, half of them after a write whose result reads as an error (`ok` false) where the group
          has such, since failures are the rarer label and the costlier misreading;
  turns:  up to 12, 8 with go-ahead words ("proceed", "confirm", "shall I", ...) and 4 without.

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_more.py RAW_DIR CLAIMS_OUT.jsonl TURNS_OUT.jsonl ../claims.real.jsonl ../turns.real.jsonl ../claims.fresh.jsonl ../turns.fresh.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import new_groups, shipped_keys, write_claims, write_turns  # noqa: E402

raw, claims_out, turns_out, *shipped_paths = sys.argv[1:]

ids, keys = shipped_keys(shipped_paths)

def groups(path):
    return new_groups(path, ids, keys, 'more:')


with open(claims_out, 'w') as f:
    write_claims(f, groups(f'{raw}/claims.raw.jsonl'), 'more:', 6, 12)

with open(turns_out, 'w') as f:
    write_turns(f, groups(f'{raw}/turns.raw.jsonl'), 8, 4)
