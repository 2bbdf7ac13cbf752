"""What the samplers of sources read without a snapshot share (sample_thirteenth.py, sample_fourteenth.py): an extract's
write calls in the form of claims.raw.jsonl, and the items to label drawn from its rows."""
import json

from extract_tau import ERRORISH, WRITE, clip, compact
from taucommon import last_write, near_text, provenance, shipped_keys


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
