#!/usr/bin/env python3
"""Draws a fourteenth batch to label (corpora/claims.fourteenth.jsonl): the replies after writes of a second source that
has no git snapshot to read here, deephyper/tau-bench, a fork of sierra-research/tau-bench (MIT, "Copyright (c) 2024
Sierra": upstream's LICENSE, which the fork leaves unchanged). Two of its τ-bench retail runs (115 tasks each), gpt-oss-20B
and gpt-oss-120B as the agent against a gpt-oss-120B user (`FILES` below), were read page by page through a code index,
and the replies after writes copied out verbatim with their place in the file (`raw/deephyper.extract.jsonl`: the file,
the page on which each episode starts, its task, trial and message index, the write calls since the previous reply to
the user and the tool's answers; the model's `reasoning_content`, never shown to the user, left out). This script turns
those rows into items in the form of claims.raw.jsonl (extract_tau.py's rules: the same write prefixes, `ok` false when
a write's answer reads as an error; an episode's index in its file is its place in page order), leaves out every id and
near-duplicate text of the shipped corpora and of the rows before it, and writes every remaining reply to label, its
split fixed as in sample.py before anything is read (held-out when sha1(id) mod 10 < 4).

    python3 raw/scripts/sample_fourteenth.py raw/deephyper.extract.jsonl TODO.jsonl claims.{real,fresh,...,thirteenth}.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extracts import paged_rows, write_items  # noqa: E402

SOURCE = 'deephyper/tau-bench'
# Each file read: its commit and its agent's model.
FILES = {
    'results-baseline/retail/test/tool-calling-gpt-oss-20B-1.0_range_0--1_user-gpt-oss-120B-llm_1006130822.json':
        ('0a0856619eb7d6282ad739edf67a8ce77e130817', 'gpt-oss-20b'),
    'results-baseline/retail/test/tool-calling-gpt-oss-120B-MXFP4-0.0_range_0--1_user-gpt-oss-120B-MXFP4-llm_0926135736.json':
        ('e472ee7f9769ffd23a5ac7222c81009a65d23f9f', 'gpt-oss-120b'),
}


def main(extract, todo, *shipped_paths):
    write_items(paged_rows(extract, SOURCE, FILES), todo, shipped_paths)

if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
