#!/usr/bin/env python3
"""Draws a seventeenth batch to label, from what the sixteenth left of the episodes the sources scored 0 (where a failure told to
the user is likeliest): per source, model and domain, up to 20 replies after writes from such episodes and any left after a
write whose result reads as an error, none of them in a shipped corpus by id or near-duplicate text. Nothing of the reader's is
used to choose. The split is fixed as in sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

    python3 scripts/extract_tau.py RAW_DIR
    python3 scripts/sample_seventeenth.py RAW_DIR CLAIMS_OUT.jsonl ../claims.*.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import sample_weighted  # noqa: E402

sample_weighted(sys.argv[1:], 'seventeenth', None, 20)
