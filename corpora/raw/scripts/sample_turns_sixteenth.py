#!/usr/bin/env python3
"""Draws a sixteenth batch of agent turns to label for the simulated user (corpora/turns.sixteenth.jsonl), from the second survey's
sources (extract_tau.py --second), none of them in any earlier extraction: per source, model and domain, up to 30 replies to the
user with go-ahead words and up to 10 without, none of them in a shipped turn corpus by id or near-duplicate text, in a fixed
order by the hash of the batch's name and id. Nothing of the user's reading is used to choose. The split is fixed as in
sample.py, before anything is read (held-out when sha1(id) mod 10 < 4).

    python3 scripts/extract_tau.py second --second
    python3 scripts/sample_turns_sixteenth.py second TURNS_OUT.jsonl ../turns.*.jsonl
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import new_groups, shipped_keys, write_turns  # noqa: E402

raw, out, *shipped = sys.argv[1:]
ids, keys = shipped_keys(shipped)
with open(out, 'w') as f:
    write_turns(f, new_groups(f'{raw}/turns.raw.jsonl', ids, keys, 'sixteenth-turns:'), 30, 10)
print('turns', sum(1 for _ in open(out)))
