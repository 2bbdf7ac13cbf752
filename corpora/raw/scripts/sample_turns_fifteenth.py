#!/usr/bin/env python3
"""Draws a fifteenth batch of agent turns to label for the simulated user (corpora/turns.fifteenth.jsonl): the replies of the
sixteenth claim batch (corpora/claims.sixteenth.jsonl, each a reply to the user right after a write) read as turns the user
must answer, but for those a shipped turn corpus holds already by id or near-duplicate text. Each is the turn extract_tau.py
wrote for that reply (raw/turns.raw.jsonl, its id and provenance), its split fixed by the hash of its id as in sample.py
(held-out when sha1(id) mod 10 < 4), before anything is read.

    python3 raw/scripts/extract_tau.py raw
    python3 raw/scripts/sample_turns_fifteenth.py raw claims.sixteenth.jsonl TODO.jsonl turns.*.jsonl     # from corpora/
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import near_text, provenance, shipped_keys  # noqa: E402


def main(raw, batch, todo, *shipped):
    ids, keys = shipped_keys(shipped)
    wanted = {(r['source'], r['path'], r['traj'], r['turn']) for r in map(json.loads, open(batch))}
    n = 0
    with open(todo, 'w') as f:
        for line in open(f'{raw}/turns.raw.jsonl'):
            r = json.loads(line)
            if (r['source'], r['path'], r['traj'], r['turn']) not in wanted or r['id'] in ids or near_text(r['text']) in keys:
                continue
            f.write(json.dumps({**provenance(r), 'text': r['text'], 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')
            n += 1
    print('turns', n)


if __name__ == '__main__':
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
