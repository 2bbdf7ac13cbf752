#!/usr/bin/env python3
"""Draws a third batch of agent turns to label for the simulated user's reading (corpora/turns.third.jsonl),
from every source: replies whose id or near-duplicate text is in none of the shipped corpora. The split is
fixed as in sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

Per (source, model, domain) group, in a fixed order by hash of id: up to 12, 8 with go-ahead words
("proceed", "confirm", "shall I", ...) and 4 without. A proposal is where a user that agrees to anything lets
a wrong plan through.

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_third_turns.py RAW_DIR TURNS_OUT.jsonl ../claims.real.jsonl ../turns.real.jsonl ../claims.fresh.jsonl ../turns.fresh.jsonl ../claims.more.jsonl ../turns.more.jsonl ../claims.third.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import new_groups, shipped_keys, write_turns  # noqa: E402

raw, turns_out, *shipped_paths = sys.argv[1:]
ids, keys = shipped_keys(shipped_paths)

with open(turns_out, 'w') as f:
    write_turns(f, new_groups(f'{raw}/turns.raw.jsonl', ids, keys, 'third-turns:'), 8, 4)
