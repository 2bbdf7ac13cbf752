#!/usr/bin/env python3
"""Draws a thirteenth batch to label (corpora/claims.thirteenth.jsonl): the replies after writes of a source whose
repository has no git snapshot to read here, hagverdiyevr/tau-bench-judge-audit (MIT: its LICENSE file, "Copyright (c)
2026 Haqverdiyev Ramiz", and its README, "MIT, matching upstream"). Its τ²-bench retail runs of gpt-4.1-nano and
gemini-3.1-flash-lite (`results/artifacts/phaseC_t<N>_<oai|gem>.json`, 40 simulations each, commit f4dabad33b) were
read page by page through a code index, and the replies after writes copied out verbatim with their place in the
file (`raw/judge-audit.extract.jsonl`: file, simulation, task, trial, message index, the write calls since the
previous reply to the user and the tool's answers). This script turns those rows into items in the form of
claims.raw.jsonl (extract_tau.py's rules: the same write prefixes, `ok` false when a write's answer reads as an
error), leaves out every id and near-duplicate text of the shipped corpora and of the rows before it, and writes
every remaining reply to label, its split fixed as in sample.py before anything is read (held-out when sha1(id)
mod 10 < 4).

    python3 raw/scripts/sample_thirteenth.py raw/judge-audit.extract.jsonl TODO.jsonl claims.{real,fresh,...,twelfth}.jsonl
"""
import json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract_tau import item_id, norm_model  # noqa: E402
from extracts import user_before, write_items, writes_of  # noqa: E402

SOURCE = 'hagverdiyevr/tau-bench-judge-audit'
COMMIT = 'f4dabad33b1d8e676a804e3f8ca4de3a4e6e9aea'
MODELS = {'oai': 'gpt-4.1-nano-2025-04-14', 'gem': 'gemini/gemini-3.1-flash-lite'}


def rows_of(path):
    """The extract's rows as claims.raw.jsonl rows, in the order of file, simulation and message."""
    out = []
    for line in open(path):
        if not line.strip():
            continue
        r = json.loads(line)
        arm = re.search(r'_(oai|gem)\.json$', r['file']).group(1)
        writes = writes_of(r['writes'])
        if not writes:
            continue
        traj = '%s/t%s/%d' % (r['task_id'], r['trial'], r['sim'])
        out.append({
            'id': item_id('c-', SOURCE, r['file'], traj, r['turn']), 'source': SOURCE, 'commit': COMMIT,
            'path': r['file'], 'traj': traj, 'turn': r['turn'], 'model': norm_model(MODELS[arm]), 'domain': 'retail',
            'episode_reward': r.get('reward'), 'text': r['text'], 'writes': writes,
            'user_before': user_before(r),
        })
    out.sort(key=lambda x: (x['path'], int(x['traj'].rsplit('/', 1)[1]), x['turn']))
    return out


def main(extract, todo, *shipped_paths):
    write_items(rows_of(extract), todo, shipped_paths)

if __name__ == '__main__':
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
