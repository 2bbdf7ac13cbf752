#!/usr/bin/env python3
"""Draws an eighteenth batch to label, from the second survey's sources (extract_tau.py --second: boazdavid/tau2-bench-verified,
tabqwertz/tau2-bench, sudongqi/tau2-bench, Basticool/tau2-bench), none of them in any earlier extraction: per source, model and
domain, every reply after a write whose result reads as an error and up to 25 from episodes the source scored 0, none of them in
a shipped corpus by id or near-duplicate text. Nothing of the reader's is used to choose. The split is fixed as in sample.py,
before anything is read (held-out when sha1(id) mod 10 < 4).

    python3 scripts/extract_tau.py second --second
    python3 scripts/sample_eighteenth.py second CLAIMS_OUT.jsonl ../claims.*.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import sample_weighted  # noqa: E402

sample_weighted(sys.argv[1:], 'eighteenth', None, 25)
