#!/usr/bin/env python3
"""Draws a fifth batch to label, after the probe sets weighted to GPT-4o and Claude: replies after writes for
the claim reader (corpora/claims.fifth.jsonl) and replies to the user for the simulated user's reading
(corpora/turns.fifth.jsonl), from every source, whose id or near-duplicate text is in none of the shipped
corpora. The split is fixed as in sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

Per (source, model, domain) group, in a fixed order by hash of id: up to 10 replies after writes, 6 of them
after a write whose result reads as an error where the group has such; up to 10 replies to the user, 6 of
them with go-ahead words. Most small sources have nothing left; the batch leans on the large ones, which
hold most of the GPT-4o and GPT-4.1 text.

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_fifth.py RAW_DIR CLAIMS_OUT.jsonl TURNS_OUT.jsonl ../{claims,turns}.{real,fresh,more,third,fourth}.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import sample_batch  # noqa: E402

sample_batch(sys.argv[1:], 'fifth', (6, 10), (6, 4))
