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
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import sample_batch  # noqa: E402

sample_batch(sys.argv[1:], 'fourth', (5, 8), (5, 3))
