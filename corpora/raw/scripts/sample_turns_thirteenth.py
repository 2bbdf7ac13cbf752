#!/usr/bin/env python3
"""Draws a thirteenth batch of agent turns to label for the simulated user (corpora/turns.thirteenth.jsonl): every reply of
the thirteenth and fourteenth claim batches (corpora/claims.thirteenth.jsonl, claims.fourteenth.jsonl: gpt-4.1-nano,
gemini-3.1-flash-lite, gpt-oss-120b and gpt-oss-20b, each a reply to the user right after a write), read now as a turn the
user must answer. None has a near-duplicate text in a shipped turn corpus (checked when drawn). Each turn's id is made as
extract_tau.py makes a turn's (`t-` and a hash of source, path, trajectory and turn), and its split is fixed by the hash of
that id as in sample.py (held-out when sha1(id) mod 10 < 4), before anything is read; `user_before` comes from the
extracts (raw/judge-audit.extract.jsonl, raw/deephyper.extract.jsonl).

    python3 raw/scripts/sample_turns_thirteenth.py TODO.jsonl       # from corpora/
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extracts import paged_rows, write_turns  # noqa: E402
import sample_fourteenth, sample_thirteenth  # noqa: E402


def main(todo):
    write_turns(('claims.thirteenth.jsonl', 'claims.fourteenth.jsonl'),
                sample_thirteenth.rows_of('raw/judge-audit.extract.jsonl') + paged_rows('raw/deephyper.extract.jsonl', sample_fourteenth.SOURCE, sample_fourteenth.FILES),
                todo)

if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
