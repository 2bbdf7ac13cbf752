#!/usr/bin/env python3
"""Draws a fifteenth batch to label (corpora/claims.fifteenth.jsonl): the replies after writes of a third source that has
no git snapshot to read here, livingshade/tau-bench, a fork of sierra-research/tau-bench (MIT, "Copyright (c) 2024
Sierra": upstream's LICENSE, which the fork leaves unchanged). Two of its τ-bench retail runs against a gemini-2.5-flash
user (`FILES` below), Qwen3-1.7B and Qwen3-32B as the agent, 115 tasks each, were read page by page through a code index,
and the replies after writes copied out verbatim with their place in the file (`raw/livingshade.extract.jsonl`: the file, the
page on which each episode starts, its task, trial and message index, the write calls since the previous reply to the user
and the tool's answers). Qwen3 writes its thinking into the message, `<think> ... </think>`, before what the user sees: the
extract keeps only the text after the last `</think>` (`think` says whether there was one). A message that opens `<think>`
and never closes it is all thinking, no reply: the readers of the 1.7B run copied five such, which are left out here (the
readers of the 32B run left them out as they read). This script turns those rows into items in the form of
claims.raw.jsonl (extract_tau.py's rules: the same write prefixes, `ok` false when a write's answer reads as an error; an
episode's index in its file is its place in page order), leaves out every id and near-duplicate text of the shipped corpora
and of the rows before it, and writes every remaining reply to label, its split fixed as in sample.py before anything is
read (held-out when sha1(id) mod 10 < 4).

    python3 raw/scripts/sample_fifteenth.py raw/livingshade.extract.jsonl TODO.jsonl claims.{real,fresh,...,fourteenth}.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extracts import paged_rows, write_items  # noqa: E402

SOURCE = 'livingshade/tau-bench'
COMMIT = 'b84b2290b3711cfefac1d465b8592f1736d1139b'
# Each file read: its commit and its agent's model.
FILES = {
    'results/tool-calling-Qwen3-1.7B-0.0_range_0--1_user-gemini-2.5-flash-llm_1130232347.json': (COMMIT, 'qwen3-1.7b'),
    'results/tool-calling-Qwen3-32B-0.0_range_0--1_user-gemini-2.5-flash-llm_1128042802.json': (COMMIT, 'qwen3-32b'),
}


def main(extract, todo, *shipped_paths):
    rows = [r for r in paged_rows(extract, SOURCE, FILES) if not r['text'].lstrip().startswith('<think>')]
    write_items(rows, todo, shipped_paths)

if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
