#!/usr/bin/env python3
"""Draws a twelfth batch to label, as the eleventh (sample_eleventh.py): replies after writes for the claim reader
(corpora/claims.twelfth.jsonl), up to 40 per group after a write whose result reads as an error and 10 others, and
replies to the user for the simulated user's reading (corpora/turns.twelfth.jsonl), up to 8 per group with
go-ahead words and 2 without. None has an id or near-duplicate text in a shipped corpus. The split is fixed as in
sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_twelfth.py RAW_DIR CLAIMS_OUT.jsonl TURNS_OUT.jsonl ../{claims,turns}.{real,fresh,more,third,fourth,fifth,sixth,seventh,eighth,ninth,tenth,eleventh}.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import sample_batch  # noqa: E402

sample_batch(sys.argv[1:], 'twelfth', (40, 46, 10), (8, 2))
