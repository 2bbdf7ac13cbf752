"""Sample SYSTEM turns of the Schema-Guided Dialogue corpus with their dialogue acts.

Source: google-research-datasets/dstc8-schema-guided-dialogue (CC BY-SA 4.0), train/ dev/ test/
(sgd_x/ is left out: the same dialogues with paraphrased schemas).

Selection (deterministic, no randomness):
  * every SYSTEM turn is put in a cell (stratum act, domain), where the stratum act is the
    turn's first act in PRIORITY order and the domain is the service name before '_';
  * each act gets an equal share of N (the remainder spread over the acts in PRIORITY order,
    and what an act cannot fill is passed on to the others);
  * within an act, cells (domains) are visited round-robin in sorted order; within a cell turns
    are taken in order of sha1(dialogue_id:turn);
  * a turn whose text (whitespace-normalised) was already taken is skipped.
Output is sorted by (path, dialogue_id, turn).  The acts are the corpus's own annotation.

Usage: python3 extract_sgd.py [OUT_DIR] [N=1500]
"""
import collections
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import git, gitdir_of  # noqa: E402

REPO = "google-research-datasets/dstc8-schema-guided-dialogue"
PRIORITY = ["NOTIFY_FAILURE", "NOTIFY_SUCCESS", "CONFIRM", "OFFER_INTENT", "OFFER", "INFORM_COUNT",
            "REQUEST", "INFORM", "REQ_MORE", "GOODBYE"]


def clip(s, n=300):
    return s if s is None or len(s) <= n else s[:n] + "…"


def main(out_dir, n_total=1500):
    g = gitdir_of(REPO)
    commit = git(g, "rev-parse", "HEAD").strip()
    paths, missing = [], []
    for line in git(g, "ls-tree", "-r", "-l", "HEAD").splitlines():
        meta, p = line.split("\t", 1)
        if re.match(r"^(train|dev|test)/dialogues_\d+\.json$", p):
            # the mirror lacks blobs of 4 MiB and more: those files are skipped (listed in the log)
            (paths if meta.split()[3].isdigit() else missing).append(p)
    paths.sort()
    cands = []
    for path in paths:
        for d in json.loads(git(g, "show", "HEAD:" + path)):
            turns = d["turns"]
            for i, t in enumerate(turns):
                if t["speaker"] != "SYSTEM":
                    continue
                acts, service = [], None
                for fr in t.get("frames", []):
                    for a in fr.get("actions", []):
                        acts.append({"act": a["act"], "slot": a.get("slot", ""), "values": a.get("values", [])})
                        service = service or fr.get("service")
                if not acts:
                    continue
                names = {a["act"] for a in acts}
                stratum = next((p for p in PRIORITY if p in names), sorted(names)[0])
                prev_user = next((turns[j]["utterance"] for j in range(i - 1, -1, -1)
                                  if turns[j]["speaker"] == "USER"), None)
                next_user = next((turns[j]["utterance"] for j in range(i + 1, len(turns))
                                  if turns[j]["speaker"] == "USER"), None)
                cands.append({
                    "source": REPO, "commit": commit, "path": path, "dialogue_id": d["dialogue_id"], "turn": i,
                    "service": service, "domain": (service or "").split("_")[0], "stratum_act": stratum,
                    "text": t["utterance"], "acts": acts,
                    "user_before": clip(prev_user), "user_after": clip(next_user),
                    "_h": hashlib.sha1(("%s:%d" % (d["dialogue_id"], i)).encode()).hexdigest(),
                })
    cells = collections.defaultdict(list)
    for c in cands:
        cells[(c["stratum_act"], c["domain"])].append(c)
    for k in cells:
        cells[k].sort(key=lambda c: c["_h"])
    acts = [a for a in PRIORITY if any(k[0] == a for k in cells)] + \
        sorted({k[0] for k in cells} - set(PRIORITY))
    seen_text, chosen = set(), []

    def take(act, quota):
        doms = sorted(k[1] for k in cells if k[0] == act)
        pos = {dm: 0 for dm in doms}
        got = 0
        while got < quota and doms:
            for dm in list(doms):
                if got >= quota:
                    break
                lst = cells[(act, dm)]
                while pos[dm] < len(lst):
                    c = lst[pos[dm]]
                    pos[dm] += 1
                    key = re.sub(r"\s+", " ", c["text"]).strip().lower()
                    if key in seen_text:
                        continue
                    seen_text.add(key)
                    chosen.append(c)
                    got += 1
                    break
                else:
                    doms.remove(dm)
        return got

    remaining, left = n_total, list(acts)
    while remaining > 0 and left:
        share, extra = divmod(remaining, len(left))
        nxt = []
        for j, a in enumerate(left):
            q = share + (1 if j < extra else 0)
            got = take(a, q)
            remaining -= got
            if got == q:
                nxt.append(a)
        if nxt == left and remaining == 0:
            break
        left = nxt
    chosen.sort(key=lambda c: (c["path"], c["dialogue_id"], c["turn"]))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "sgd.raw.jsonl"), "w") as f:
        for c in chosen:
            c.pop("_h")
            c = {"id": "s-" + hashlib.sha1(("%s:%d" % (c["dialogue_id"], c["turn"])).encode()).hexdigest()[:16], **c}
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print("sgd: %d dialogue files read, %d absent from the mirror: %s" % (len(paths), len(missing), " ".join(sorted(missing))))
    print("sgd: %d system turns with acts, %d chosen" % (len(cands), len(chosen)))
    print("by stratum act:", dict(collections.Counter(c["stratum_act"] for c in chosen)))
    print("domains:", len({c["domain"] for c in chosen}))


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    main(out, int(sys.argv[2]) if len(sys.argv) > 2 else 1500)
