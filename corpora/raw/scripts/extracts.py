"""What the samplers of sources read without a snapshot share (sample_thirteenth.py, sample_fourteenth.py,
sample_fifteenth.py and the turn samplers of their batches): an extract's write calls in the form of claims.raw.jsonl, a
τ-bench extract's rows as items, the items to label drawn from its rows, and a batch's replies as turns."""
import json

from extract_tau import ERRORISH, WRITE, clip, compact, item_id
from taucommon import last_write, near_text, provenance, shipped_keys, split_of


def writes_of(calls):
    """An extract row's write calls as claims.raw.jsonl holds them (extract_tau.py's rules): the same write prefixes,
    arguments as compact JSON, the answer clipped, `ok` false when the answer has an error flag or reads as an error."""
    out = []
    for w in calls:
        if not WRITE.match(w['tool'] or ''):
            continue
        result = w.get('result') or ''
        err = bool(w.get('error')) or bool(ERRORISH.search(result[:200]))
        out.append({'tool': w['tool'], 'args': compact(w['args']), 'result': clip(result), 'ok': not err})
    return out


def user_before(r):
    """The user's message before a reply, clipped as claims.raw.jsonl holds it."""
    return clip(r.get('user_before')) if r.get('user_before') is not None else None


def write_items(rows, todo, shipped_paths):
    """Every row to label, in order, but those whose id or near-duplicate text a shipped corpus (or a row before it)
    holds, or whose text is empty or over 2,500 characters; one JSON line each, with its provenance and split."""
    ids, keys = shipped_keys(shipped_paths)
    seen, n = set(), 0
    with open(todo, 'w') as f:
        for r in rows:
            t = (r['text'] or '').strip()
            k = near_text(t)
            if not t or len(t) > 2500 or r['id'] in ids or k in keys or k in seen:
                continue
            seen.add(k)
            _, action, names = last_write(r)
            f.write(json.dumps({**provenance(r), 'text': r['text'], 'action': action, 'names': names,
                                'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')
            n += 1
    print('items', n)


def paged_rows(path, source, files):
    """A τ-bench extract's rows (read page by page: each row has its `file` and the `page` its episode starts on) as
    claims.raw.jsonl rows, file by file in the order of `files` ({path: (commit, model)}), each file's in episode order.
    An episode's index in its file is its place in page order; episodes that start on the same page are in the file in the
    order of their tasks (a run goes task by task)."""
    raw = [json.loads(line) for line in open(path) if line.strip()]
    out = []
    for file, (commit, model) in files.items():
        mine = [r for r in raw if r['file'] == file]
        episodes = sorted({(r['page'], int(r['task_id']), int(r.get('trial') or 0)) for r in mine})
        index = {(t, tr): i for i, (_, t, tr) in enumerate(episodes)}
        rows = []
        for r in mine:
            writes = writes_of(r['writes'])
            if not writes:
                continue
            trial = int(r.get('trial') or 0)
            traj = '%s/t%s/%d' % (r['task_id'], trial, index[(int(r['task_id']), trial)])
            rows.append({
                'id': item_id('c-', source, file, traj, r['turn']), 'source': source, 'commit': commit, 'path': file,
                'traj': traj, 'turn': r['turn'], 'model': model, 'domain': 'retail', 'episode_reward': r.get('reward'),
                'text': r['text'], 'writes': writes,
                'user_before': user_before(r),
            })
        out += sorted(rows, key=lambda x: (int(x['traj'].rsplit('/', 1)[1]), x['turn']))
    return out


def write_turns(batches, rows, todo):
    """Every reply of the claim batches at `batches`, read as a turn the user must answer: its turn id made as extract_tau.py
    makes a turn's (`t-` and a hash of source, path, trajectory and turn), its split fixed by the hash of that id, and its
    `user_before` from the extract rows `rows` it came from. One JSON line each, in the batches' order."""
    before = {(r['path'], r['traj'], r['turn']): r.get('user_before') for r in rows}
    n = 0
    with open(todo, 'w') as f:
        for batch in batches:
            for line in open(batch):
                r = json.loads(line)
                tid = item_id('t-', r['source'], r['path'], r['traj'], r['turn'])
                f.write(json.dumps({'id': tid, **{k: r[k] for k in ('source', 'commit', 'path', 'traj', 'turn', 'model', 'domain')},
                                    'split': split_of(tid), 'text': r['text'],
                                    'user_before': before[(r['path'], r['traj'], r['turn'])]}, ensure_ascii=False) + '\n')
                n += 1
    print('turns', n)
