"""List every candidate result file in the mirrors with counts (no output corpus)."""
import os, re, sys, json
sys.path.insert(0, os.path.dirname(__file__))
from taucommon import *

WRITE = re.compile(r"^(cancel|modify|update|exchange|return|book|change|send|transfer|issue|add|toggle|enable|disable|refuel|reset|set|create|delete|remove|apply|make|place|process|submit|suspend|resume|upgrade|refund|reserve|grant|assign|close|open|edit|register|reboot|pay)_")

def main(filters):
    excl = excluded_blobs()
    for d in sorted(os.listdir(MIRROR)):
        if not os.path.isdir(os.path.join(MIRROR, d, "repo")) or "dstc8" in d: continue
        repo = d.replace("+", "/", 1)
        if repo in EXCLUDED_REPOS: continue
        if filters and not any(f in d for f in filters): continue
        for path, blob, size in ls_tree(repo):
            if not re.search(r"\.jsonl?$", path) or size is None or size < 5000: continue
            if path_excluded(repo, path) or blob in excl: continue
            if "/envs/" in path and "/data/" in path: continue
            s = read_blob(repo, blob)
            if '"assistant"' not in s: continue
            data = load_json_any(s)
            if data is None: continue
            pm, pd, pu = model_from_path(path)
            neps = nasst = nw = 0; models=set(); doms=set()
            for ep in episodes_from(data, path):
                msgs = norm_messages(ep["messages"])
                if not msgs: continue
                neps += 1
                models.add(ep["model"] or pm); 
                dom = ep["domain"] or pd or (msgs and domain_from_text(msgs[0]["text"]))
                doms.add(dom)
                wrote = False
                for m in msgs:
                    if m["role"] == "assistant" and m["calls"]:
                        if any(WRITE.match(c["name"] or "") for c in m["calls"]): wrote = True
                    elif m["role"] == "assistant" and m["text"].strip():
                        nasst += 1
                        if wrote: nw += 1
                        wrote = False
            if neps:
                print("%s\t%s\t%d\teps=%d\tasst=%d\tpostwrite=%d\t%s\t%s" % (repo, path, size, neps, nasst, nw, sorted(map(str,models)), sorted(map(str,doms))))
if __name__ == "__main__":
    main(sys.argv[1:])
