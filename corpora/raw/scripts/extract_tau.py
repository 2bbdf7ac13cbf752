"""Extract raw candidate items from τ-bench / τ²-bench result files in the mirrors.

Writes (in the output folder, default ../):
  claims.raw.jsonl  - assistant replies to the user that follow >=1 write tool call
  turns.raw.jsonl   - every assistant reply to the user
  tau_files.tsv     - every file read, with its counts (for SOURCES.md)

Nothing is labelled here; fields are what the source says, plus `ok`, a heuristic
(the tool result does not look like an error).

Usage: python3 extract_tau.py [OUT_DIR]
Python 3, stdlib only.  Reads the bare git mirrors under $MIRROR_ROOT (/work/.mirror).
"""
import collections
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taucommon import (MIRROR, near_text, EXCLUDED_REPOS, domain_from_text, domain_from_tools, episodes_from,  # noqa: E402
                       excluded_blobs, head_commit, load_json_any, ls_tree, model_from_path,
                       norm_messages, path_excluded, read_blob, strategy_from_path)

WRITE = re.compile(r"^(cancel|modify|update|exchange|return|book|change|send|transfer|issue|add|toggle|"
                   r"enable|disable|refuel|reset|set|create|delete|remove|apply|make|place|process|submit|"
                   r"suspend|resume|upgrade|refund|reserve|grant|assign|edit|register|pay)_")
ERRORISH = re.compile(r"^\s*(error\b|exception\b|traceback\b|unknown (action|tool)|invalid\b|failed\b)|"
                      r"\"error\"\s*:|^\s*\{?\s*'?error'?\s*:|\bError\s*:", re.I)
TAU2_GREETING = "Hi! How can I help you today?"


# ---------------------------------------------------------------- sources
def _madhav_model(path, found):
    b = os.path.basename(path)
    m = re.match(r"tool-calling-l\d-(4o|4\.1)\.json$", b)
    if m:  # final_results/tool-calling-l{0,1,2}-{4o,4.1}.json: model inferred from the file name
        return {"4o": "gpt-4o", "4.1": "gpt-4.1"}[m.group(1)], "file name, as final_results/statistics.py reads it"
    return found


def _reapor_model(path, found):
    # results/<Model>[_IL_checkpoint-N]/<domain>-temperature-....json
    d = path.split("/")[1]
    return d, "directory name"


def _codesque_model(path, found):
    d = path.split("/")[2] if path.count("/") >= 3 else ""
    m = re.search(r"_llm_(?:[a-z]+_)?agent_(.+?)_user_simulator_", d)
    if m:
        return m.group(1), "directory name"
    m = re.match(r"\[[^\]]*\]\[[^\]]*\]\[([^\]]+)\]", d)
    if m:
        return m.group(1).lower(), "directory name"
    m = re.match(r"_([a-z0-9][a-z0-9.\-]+)__", d)
    if m:
        return m.group(1), "directory name"
    return None, None


# repo -> {"include": regex on path, "exclude": regex on path, "model": fn(path, (model, how)) -> (model, how)}
SOURCES = {
    "asteroidai/tau-bench": {"include": r"^results/"},
    "garrettallen14/tau-bench": {"include": r"^unformatted-results/"},
    "avaljotsingh/tau-bench": {"include": r"\.json$", "exclude": r"^(task_\d+|output|results)\.json$"},
    # results/: small open models that also played the user (Qwen2.5-7B, Mistral-7B, deepseek-coder-1.3b):
    # the simulated user repeats the agent's questions, so those runs are left out
    "Madhav-Kanda/tau-bench": {"include": r"\.json$",
                               "exclude": r"(^|/)input/|^experiments/|^results/|^(task_\d+|output|results)\.json$",
                               "model": _madhav_model},
    "Reapor-Yurnero/tau-bench": {"include": r"^results/", "model": _reapor_model},
    "aaronwu901225main/tau-bench": {"include": r"^results/"},
    "fabrahman/tau-bench": {"include": r"^outputs/qwen3_8b_airline\.json$",
                            "model": lambda p, f: ("Qwen3-8B", "file name")},
    "ck496/tau-bench-agents": {"include": r"^phase1/JSON_trajectories"},
    "ShramanPramanick/Grok_tau_Bench": {"include": r"^results/"},
    "codesque16/tau2-bench": {"include": r"^docs/data/", "exclude": r"^docs/data/log-test/", "model": _codesque_model},
    "bogoliubon/tau2-bench": {"include": r"^evaluations/"},
    "WhissleAI/tau2-bench-w": {"include": r"^results/whissle/(airline_run1|hd_retail_n5)\.json$",
                               "model": lambda p, f: ("whissle-agent", "info.agent_info (implementation: whissle)")
                               if f[0] == "whissle" else f},
    "yoheinakajima/activegraph-tau2-bench": {"include": r"/tau2_output/results\.json$"},
    "rkstu/tau2-bench": {"include": r"^src/experiments/tau2_trace/results/"},
    # NVIDIA ToolOrchestra leaderboard submission (first published in sierra-research/tau2-bench under
    # web/leaderboard/public/submissions/; identical blob in several forks: the first in sort order is kept)
    "Kavirubc/tau2-bench": {"include": r"^web/leaderboard/public/submissions/toolorchestra_nvidia_2025-12-02/trajectories/",
                            "model": lambda p, f: ("Nemotron-Orchestrator-8B (ToolOrchestra, with gpt-5)",
                                                   "submission.json")},
}
# The second survey's sources (SOURCES.md, "Second survey"): repositories found after the batches above were drawn, read into a
# folder of their own (`extract_tau.py OUT --second`) so that the first extraction, and every batch drawn from it, stays as it was.
# Basticool's results are at two commits before its HEAD deleted them; its runs were built to make gpt-4.1 break a policy rule,
# and its replies are the model's own text.
SECOND_SOURCES = {
    "boazdavid/tau2-bench-verified": {"include": r"^data/simulations/results/airline/gpt-4o_test[\w]*\.json$", "own_simulations": True},
    "tabqwertz/tau2-bench": {"include": r"^2025-09-25T[\d:.]+_(?:retail|airline)_llm_agent_grok-3_user_simulator_grok-3\.json$"},
    "sudongqi/tau2-bench": {"include": r"^data/simulations/airline-(?:gpt4\.1-mini|grok3)\.json$", "own_simulations": True,
                            "model": lambda p, f: f if f[0] else (("gpt-4.1-mini" if "gpt4.1-mini" in p else "grok-3"), "file name")},
    "Basticool/tau2-bench": {"include": r"^results/(?:non_compliant_[\w-]+|test(?:_2)?)\.jsonl?$",
                             "revs": ["59257987c1faa242f1f7f778bf34ba519c6ba103", "c115857ff91acb44b597a77b53808cebe2f64333"],
                             "model": lambda p, f: f if f[0] else ("openai/gpt-4.1", "the run's header (agent openai/gpt-4.1)")},
}

# Seen but not used (reason in SOURCES.md): jitrc/tau2-enhanced (no licence), Ephibbs/big-tau
# (gpt-4o retail conversations of unknown origin, possibly derived from historical_trajectories),
# bogoliubon/tau2-bench data/tau2/human_trajectories (a human played the agent), zen-wang (template),
# dannyhagenlocker (test fixture), ChenXiaoTemp (no model).


def compact(x, n=400):
    s = json.dumps(x, separators=(",", ":"), sort_keys=True, ensure_ascii=False) if not isinstance(x, str) else x
    return s if len(s) <= n else s[:n] + "…"


def clip(s, n=300):
    s = s or ""
    return s if len(s) <= n else s[:n] + "…"


def norm_model(m):
    """Family-level name: provider prefix, date stamp and '-preview' removed, lower case."""
    if not m:
        return "unknown"
    m = str(m).strip()
    if m.lower() in ("none", "null", ""):
        return "unknown"
    if "(" in m:  # described systems are kept as written
        return m
    m = m.split("/")[-1].lower()
    m = re.sub(r"-20\d\d-?\d\d-?\d\d$", "", m)
    m = re.sub(r"-preview$", "", m)
    return m


def item_id(prefix, *parts):
    return prefix + hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest()[:16]


def text_key(t):
    return re.sub(r"\s+", " ", t).strip()


def traj_sort_key(traj):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", str(traj))]


def main(out_dir, sources=None):
    sources = SOURCES if sources is None else sources
    os.makedirs(out_dir, exist_ok=True)
    excl = excluded_blobs()
    seen_blobs = {}
    claims, turns, files = [], [], []
    for repo, cfg, rev in [(r, sources[r], rev) for r in sorted(sources) for rev in sources[r].get("revs", ["HEAD"])]:
        if not os.path.isdir(os.path.join(MIRROR, repo.replace('/', '+'))):
            print('no mirror of %s: skipped' % repo, file=sys.stderr)
            continue
        assert repo not in EXCLUDED_REPOS
        commit = head_commit(repo, rev)
        own = bool(cfg.get("own_simulations"))
        # A source that reads its own data/simulations is checked against every other mirror's excluded blobs and upstream's
        # history: made once per source, not once per file.
        excluded = excluded_blobs(skip=repo) if own else excl
        for path, blob, size in sorted(ls_tree(repo, rev)):
            if not re.search(r"\.jsonl?$", path) or size is None:
                continue
            if not re.search(cfg["include"], path):
                continue
            if cfg.get("exclude") and re.search(cfg["exclude"], path):
                continue
            if path_excluded(repo, path, own) or blob in excluded:
                continue
            if blob in seen_blobs:
                files.append((repo, path, "same blob as " + seen_blobs[blob] + " (not read again)", 0, 0, 0, "", ""))
                continue
            s = read_blob(repo, blob)
            data = load_json_any(s)
            if data is None:
                continue
            seen_blobs[blob] = "%s:%s" % (repo, path)
            pm, pd, pu = model_from_path(path)
            strategy = strategy_from_path(path)
            n_ep = n_t = n_c = 0
            fmodels, fdomains = set(), set()
            for ep in episodes_from(data, path):
                msgs = norm_messages(ep["messages"])
                if not msgs:
                    continue
                found = (ep["model"] or pm, "result file info" if ep["model"] else ("file name" if pm else None))
                model_raw, how = cfg["model"](path, found) if cfg.get("model") else found
                model = norm_model(model_raw)
                sys_text = next((m["text"] for m in msgs if m["role"] == "system"), "")
                domain = (ep["domain"] or pd or domain_from_text(sys_text) or domain_from_tools(msgs)
                          or ("retail" if "retail" in path.lower() else "airline" if "airline" in path.lower() else None))
                n_ep += 1
                fmodels.add(model)
                fdomains.add(str(domain))
                pending = []          # calls since the last reply to the user: [{tool,args,result,ok}]
                batch = []            # calls of the last assistant call message still waiting for a result
                last_user = None
                is_tau2 = isinstance(data, dict)
                for k, m in enumerate(msgs):
                    if m["role"] == "user":
                        last_user = m["text"]
                        continue
                    if m["role"] == "assistant" and m["calls"]:
                        batch = []
                        for c in m["calls"]:
                            rec = {"tool": c["name"], "args": compact(c["args"]), "result": None, "ok": None}
                            pending.append(rec)
                            batch.append(rec)
                        continue
                    if m["role"] == "tool":
                        rec = next((r for r in batch if r["result"] is None and
                                    (not m["tool"] or r["tool"] == m["tool"])), None)
                        if rec is None:
                            rec = next((r for r in batch if r["result"] is None), None)
                        if rec is not None:
                            rec["result"] = clip(m["text"])
                            err = bool(m["error"]) or bool(ERRORISH.search((m["text"] or "")[:200]))
                            rec["ok"] = not err
                        continue
                    if m["role"] != "assistant" or not m["text"].strip():
                        continue
                    # an assistant reply to the user
                    if is_tau2 and last_user is None and m["text"].strip() == TAU2_GREETING:
                        pending, batch = [], []
                        continue  # τ²'s fixed opening line, not model text
                    user_after = next((x["text"] for x in msgs[k + 1:] if x["role"] == "user"), None)
                    nxt_reply_idx = next((j for j in range(k + 1, len(msgs)) if msgs[j]["role"] == "assistant"
                                          and not msgs[j]["calls"] and msgs[j]["text"].strip()), None)
                    user_idx = next((j for j in range(k + 1, len(msgs)) if msgs[j]["role"] == "user"), None)
                    if user_idx is not None and nxt_reply_idx is not None and nxt_reply_idx < user_idx:
                        user_after = None  # the user did not answer this message directly
                    base = {
                        "source": repo, "commit": commit, "path": path, "traj": ep["traj"], "turn": m["idx"],
                        "model": model, "model_raw": model_raw, "model_from": how, "user_model": ep.get("user_model") or pu,
                        "domain": domain, "strategy": strategy, "episode_reward": ep.get("reward"),
                        "text": m["text"],
                    }
                    t = dict(base)
                    t["user_before"] = clip(last_user) if last_user is not None else None
                    t["user_after"] = clip(user_after) if user_after is not None else None
                    turns.append(t)
                    n_t += 1
                    writes = [dict(w) for w in pending if WRITE.match(w["tool"] or "")]
                    if writes:
                        c = dict(base)
                        c["writes"] = writes
                        c["user_before"] = clip(last_user) if last_user is not None else None
                        claims.append(c)
                        n_c += 1
                    pending, batch = [], []
            if n_ep:
                files.append((repo, path, "read", n_ep, n_t, n_c, ",".join(sorted(fmodels)), ",".join(sorted(fdomains))))

    def finish(items, prefix, name):
        items.sort(key=lambda x: (x["source"], x["path"], traj_sort_key(x["traj"]), x["turn"]))
        seen, out = set(), []
        for x in items:
            k = text_key(x["text"])
            if not k or k in seen:
                continue
            seen.add(k)
            x["id"] = item_id(prefix, x["source"], x["path"], x["traj"], x["turn"])
            x["near_dup_key"] = near_text(x["text"])
            out.append(x)
        order = ["id", "source", "commit", "path", "traj", "turn", "model", "model_raw", "model_from", "user_model", "domain",
                 "strategy", "episode_reward", "text", "writes", "user_before", "user_after", "near_dup_key"]
        with open(os.path.join(out_dir, name), "w") as f:
            for x in out:
                f.write(json.dumps({k: x[k] for k in order if k in x}, ensure_ascii=False) + "\n")
        return out

    c = finish(claims, "c-", "claims.raw.jsonl")
    t = finish(turns, "t-", "turns.raw.jsonl")
    with open(os.path.join(out_dir, "tau_files.tsv"), "w") as f:
        # counts are before the cross-file dedupe of identical texts
        f.write("source\tpath\tstatus\tepisodes\treplies\tpost_write_replies\tmodels\tdomains\n")
        for r in files:
            f.write("\t".join(map(str, r)) + "\n")
    print("claims: %d raw, %d after dedupe; turns: %d raw, %d after dedupe" % (len(claims), len(c), len(turns), len(t)))


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--second"]
    main(args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
         SECOND_SOURCES if "--second" in sys.argv else None)
