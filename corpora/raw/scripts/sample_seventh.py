#!/usr/bin/env python3
"""Draws a seventh batch to label, as the sixth (sample_sixth.py) but with more go-aheads: replies after writes
for the claim reader (corpora/claims.seventh.jsonl), those after a write whose result reads as an error first,
and replies to the user for the simulated user's reading (corpora/turns.seventh.jsonl), most of them with
go-ahead words, to measure what the user agrees to. None has an id or near-duplicate text in a shipped corpus.
The split is fixed as in sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

Per (source, model, domain) group, in a fixed order by hash of id: up to 20 replies after a write whose
result reads as an error and up to 6 others; up to 8 replies to the user with go-ahead words and up to 2
without.

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_seventh.py RAW_DIR CLAIMS_OUT.jsonl TURNS_OUT.jsonl ../{claims,turns}.{real,fresh,more,third,fourth,fifth,sixth}.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import sample_batch  # noqa: E402

sample_batch(sys.argv[1:], 'seventh', (20, 26, 6), (8, 2))
