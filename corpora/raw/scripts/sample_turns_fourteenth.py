#!/usr/bin/env python3
"""Draws a fourteenth batch of agent turns to label for the simulated user (corpora/turns.fourteenth.jsonl): every reply of
the fifteenth claim batch (corpora/claims.fifteenth.jsonl: Qwen3-1.7B and Qwen3-32B, each a reply to the user right after a
write), read now as a turn the user must answer. None has a near-duplicate text in a shipped turn corpus (checked when
drawn). Each turn's id is made as extract_tau.py makes a turn's (`t-` and a hash of source, path, trajectory and turn), and
its split is fixed by the hash of that id as in sample.py (held-out when sha1(id) mod 10 < 4), before anything is read;
`user_before` comes from the extract (raw/livingshade.extract.jsonl).

    python3 raw/scripts/sample_turns_fourteenth.py claims.fifteenth.jsonl TODO.jsonl       # from corpora/
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extracts import paged_rows, write_turns  # noqa: E402
import sample_fifteenth  # noqa: E402


def main(batch, todo):
    write_turns((batch,), paged_rows('raw/livingshade.extract.jsonl', sample_fifteenth.SOURCE, sample_fifteenth.FILES), todo)

if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
