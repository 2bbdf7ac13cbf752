"""Joins an item to be labelled with its hand label, in the shipped corpora's formats (build_corpora.py,
build_more.py). Each returns None when the label is missing or not valid."""
import json

PROV = ('id', 'source', 'commit', 'path', 'traj', 'turn', 'model', 'domain')


def claim_row(it, l):
    """A reply after a write: text, action, names, label, split, and where it comes from."""
    if not l or l.get('label') not in ('success', 'failure', 'pending', 'none'):
        return None
    row = {'text': it['text'], 'action': it['action'], 'names': it['names'], 'label': l['label'], 'split': it['split'], 'style': 'real', **{k: it[k] for k in PROV}}
    if l.get('unsure'):
        row['unsure'] = True
    return row


def turn_row(it, l, also=False):
    """A reply to the user: what the user must do with it; with `also`, the other changes a go-ahead authorises."""
    if not l or 'asks' not in l:
        return None
    expect = {k: l.get(k) for k in ('asks', 'identity', 'details', 'goAhead', 'proposes', 'choice', 'progress')}
    if also and l.get('goAhead') and l.get('proposes'):
        expect['alsoProposes'] = l.get('alsoProposes') or []
    row = {'text': it['text'], 'expect': expect, 'split': it['split'], 'user_before': it.get('user_before'), **{k: it[k] for k in PROV}}
    if l.get('unsure'):
        row['unsure'] = True
    return row


def load(path):
    """A JSON-lines file as a list, blank lines left out."""
    return [json.loads(l) for l in open(path) if l.strip()]


def write_joined(name, out_path, items, labels, row):
    """Joins each item with its label by `row` into `out_path`, leaving out those without a valid label, and says how many."""
    rows = [r for r in (row(it, labels.get(it['id'])) for it in items) if r]
    with open(out_path, 'w') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')
    print(name, len(rows), 'of', len(items))
