#!/usr/bin/env python3
"""Draws a sixth batch to label, weighted to the costlier misreading: replies after writes for the claim
reader (corpora/claims.sixth.jsonl), most of them after a write whose result reads as an error, and replies
to the user for the simulated user's reading (corpora/turns.sixth.jsonl), most of them with go-ahead words.
None has an id or near-duplicate text in a shipped corpus. The split is fixed as in sample.py, before anything
is read (held-out when sha1(id) mod 10 < 4).

Per (source, model, domain) group, in a fixed order by hash of id: up to 20 replies after a write whose
result reads as an error and up to 4 others; up to 6 replies to the user with go-ahead words and up to 2
without. Replies after errors are left in five sources only (codesque16, Madhav-Kanda, bogoliubon,
Reapor-Yurnero, asteroidai), so they dominate the claims.

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_sixth.py RAW_DIR CLAIMS_OUT.jsonl TURNS_OUT.jsonl ../{claims,turns}.{real,fresh,more,third,fourth,fifth}.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import sample_batch  # noqa: E402

sample_batch(sys.argv[1:], 'sixth', (20, 24, 4), (6, 2))
