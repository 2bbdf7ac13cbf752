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
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract_tau import item_id  # noqa: E402
from extracts import user_before, write_items, writes_of  # noqa: E402

SOURCE = 'deephyper/tau-bench'
# Each file read: its commit and its agent's model.
FILES = {
    'results-baseline/retail/test/tool-calling-gpt-oss-20B-1.0_range_0--1_user-gpt-oss-120B-llm_1006130822.json':
        ('0a0856619eb7d6282ad739edf67a8ce77e130817', 'gpt-oss-20b'),
    'results-baseline/retail/test/tool-calling-gpt-oss-120B-MXFP4-0.0_range_0--1_user-gpt-oss-120B-MXFP4-llm_0926135736.json':
        ('e472ee7f9769ffd23a5ac7222c81009a65d23f9f', 'gpt-oss-120b'),
}


def rows_of(path):
    """The extract's rows as claims.raw.jsonl rows, in file order."""
    raw = [json.loads(line) for line in open(path) if line.strip()]
    out = []
    for file, (commit, model) in FILES.items():
        mine = [r for r in raw if r['file'] == file]
        episodes = sorted({(r['page'], int(r['task_id']), int(r.get('trial') or 0)) for r in mine})
        # Episodes that start on the same page are in the file in the order of their tasks (the run goes task by task).
        index = {(t, tr): i for i, (_, t, tr) in enumerate(episodes)}
        rows = []
        for r in mine:
            writes = writes_of(r['writes'])
            if not writes:
                continue
            trial = int(r.get('trial') or 0)
            traj = '%s/t%s/%d' % (r['task_id'], trial, index[(int(r['task_id']), trial)])
            rows.append({
                'id': item_id('c-', SOURCE, file, traj, r['turn']), 'source': SOURCE, 'commit': commit, 'path': file,
                'traj': traj, 'turn': r['turn'], 'model': model, 'domain': 'retail', 'episode_reward': r.get('reward'),
                'text': r['text'], 'writes': writes,
                'user_before': user_before(r),
            })
        out += sorted(rows, key=lambda x: (int(x['traj'].rsplit('/', 1)[1]), x['turn']))
    return out


def main(extract, todo, *shipped_paths):
    write_items(rows_of(extract), todo, shipped_paths)

if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
