"""Shared helpers: read τ-bench / τ²-bench result files out of bare git mirrors
and normalise them into a list of episodes of uniform messages.

Python 3, stdlib only.  Nothing here labels anything.

Normalised message:
  {"role": "user"|"assistant"|"tool"|"system",
   "text": str,                      # what was said (assistant: only if shown to the user)
   "calls": [{"name", "args"}],      # assistant tool calls (empty if a reply to the user)
   "tool": str|None, "error": bool|None}   # for role == tool
"""
import collections
import hashlib
import json
import os
import re
import subprocess

MIRROR = os.environ.get("MIRROR_ROOT", "/work/.mirror")

# ---------------------------------------------------------------- exclusions
# Kept outside the project for checks (issue 36): never read, never used.
EXCLUDED_REPOS = {
    "yiphei/new-tau-bench",
    # a GitHub fork of yiphei/new-tau-bench (same author, merges yiphei:main)
    "yaadree2/yifei-tau-bench",
}
EXCLUDED_PATH_PARTS = ("historical_trajectories", "data/simulations")
# The repositories whose data/simulations and historical_trajectories hold the checks from outside.
UPSTREAMS = {"sierra-research/tau2-bench", "sierra-research/tau-bench"}
# file names of sierra-research/tau-bench historical_trajectories/* and the
# run id that appears in copies of them elsewhere
EXCLUDED_NAME_PATTERNS = (
    re.compile(r"(^|/)(gpt-4o|sonnet-35-new)-(airline|retail)\.json$"),
    re.compile(r"1118113344"),
)


def git(gitdir, *args, text=True):
    r = subprocess.run(["git", "-C", gitdir, *args], capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr.decode("utf-8", "replace"))
    return r.stdout.decode("utf-8", "replace") if text else r.stdout


def gitdir_of(repo):
    return os.path.join(MIRROR, repo.replace("/", "+"), "repo")


def head_commit(repo, rev="HEAD"):
    return git(gitdir_of(repo), "rev-parse", rev).strip()


def ls_tree(repo, rev="HEAD"):
    """[(path, blob, size|None)] at `rev` (HEAD unless a source names the commits its files are at)."""
    out = []
    for line in git(gitdir_of(repo), "ls-tree", "-r", "-l", rev).splitlines():
        meta, path = line.split("\t", 1)
        mode, typ, blob, size = meta.split()
        if typ != "blob":
            continue
        out.append((path, blob, int(size) if size.isdigit() else None))
    return out


def excluded_blobs(skip=None):
    """Blob ids of every excluded path in every mirror (names and ids only:
    the content is never opened).  A copy of one of them under another path
    is thereby excluded too.  `skip` (owner/name) leaves out one mirror: a
    source whose own runs sit in its `data/simulations` (`own_simulations`)."""
    assert skip not in UPSTREAMS, "upstream's own data/simulations are never read"
    blobs = set()
    for d in sorted(os.listdir(MIRROR)):
        g = os.path.join(MIRROR, d, "repo")
        if not os.path.isdir(g):
            continue
        # The source itself keeps its historical_trajectories excluded; only its data/simulations may be read.
        own = skip is not None and d == skip.replace("/", "+")
        try:
            txt = git(g, "ls-tree", "-r", "HEAD")
        except RuntimeError:
            continue
        for line in txt.splitlines():
            meta, path = line.split("\t", 1)
            if any(p in path for p in EXCLUDED_PATH_PARTS if not (own and p == "data/simulations")):
                blobs.add(meta.split()[2])
    if skip is not None:
        # For a source that reads its own data/simulations, every blob upstream's ever held, wherever the mirror has its history.
        for up in sorted(UPSTREAMS):
            g = os.path.join(MIRROR, up.replace("/", "+"), "repo")
            if os.path.isdir(g):
                for line in git(g, "log", "--all", "--format=", "--raw", "--no-abbrev", "--", "data/simulations", "historical_trajectories").splitlines():
                    parts = line.split()
                    if len(parts) >= 4 and set(parts[3]) != {"0"}:
                        blobs.add(parts[3])
    return blobs


def path_excluded(repo, path, own_simulations=False):
    """Whether a path is one kept for checks from outside (its repository, historical_trajectories, a `data/simulations`).
    A source of the second survey whose own runs sit in its `data/simulations` (`own_simulations`: its files' paths exist in
    no upstream tree, and their blobs in no other mirror's excluded paths) reads them; never historical_trajectories."""
    if repo in EXCLUDED_REPOS:
        return True
    if any(p in path for p in EXCLUDED_PATH_PARTS if not (own_simulations and p == "data/simulations")):
        return True
    return any(p.search(path) for p in EXCLUDED_NAME_PATTERNS)


def read_blob(repo, blob):
    return git(gitdir_of(repo), "cat-file", "-p", blob, text=False).decode("utf-8", "replace")


def load_json_any(s):
    s = s.strip()
    if not s:
        return None
    try:
        return json.loads(s)
    except json.JSONDecodeError:
        out = []
        for line in s.splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                return None
        return out


# ---------------------------------------------------------------- messages
def _args(a):
    if isinstance(a, str):
        try:
            return json.loads(a)
        except json.JSONDecodeError:
            return a
    return a


def _text(c):
    if c is None:
        return ""
    if isinstance(c, str):
        return c
    if isinstance(c, list):  # content blocks
        parts = []
        for b in c:
            if isinstance(b, dict) and b.get("type") in (None, "text"):
                parts.append(b.get("text") or "")
            elif isinstance(b, str):
                parts.append(b)
        return "\n".join(p for p in parts if p)
    return str(c)


REACT_ACTION = re.compile(r"Action:\s*(\{.*\})\s*$", re.S)


def norm_messages(raw):
    """raw: list of OpenAI-style (τ-bench) or τ²-style messages."""
    out = []
    for raw_idx, m in enumerate(raw or []):
        if not isinstance(m, dict):
            continue
        role = m.get("role")
        if role == "function":
            role = "tool"
        if role not in ("user", "assistant", "tool", "system"):
            continue
        text = _text(m.get("content"))
        calls = []
        for tc in m.get("tool_calls") or []:
            if not isinstance(tc, dict):
                continue
            f = tc.get("function") if isinstance(tc.get("function"), dict) else tc
            calls.append({"name": f.get("name"), "args": _args(f.get("arguments"))})
        if role == "assistant" and not calls and text:
            # ReAct / Act agents: "Thought: ...\nAction: {"name": ..., "arguments": ...}"
            mm = REACT_ACTION.search(text)
            if mm:
                try:
                    act = json.loads(mm.group(1))
                except json.JSONDecodeError:
                    act = None
                if isinstance(act, dict) and "name" in act:
                    if act["name"] == "respond":
                        a = act.get("arguments") or {}
                        text = a.get("content", "") if isinstance(a, dict) else str(a)
                    else:
                        calls.append({"name": act["name"], "args": act.get("arguments")})
                        text = ""
        if role == "user" and text.startswith("API output:"):
            # ReAct agents get tool output as a user turn
            role = "tool"
            text = text[len("API output:"):].strip()
        if role == "user" and m.get("tool_calls"):
            # τ² telecom: the user's own tool calls are not speech to the agent
            calls = []
        out.append({
            "idx": raw_idx,
            "role": role,
            "text": text,
            "calls": calls if role == "assistant" else [],
            "tool": m.get("name") if role == "tool" else None,
            "error": m.get("error") if role == "tool" else None,
            "requestor": m.get("requestor"),
        })
    # τ² tool messages carry no name: take it from the preceding call
    pending = []
    for msg in out:
        if msg["role"] == "assistant" and msg["calls"]:
            pending = [c["name"] for c in msg["calls"]]
        elif msg["role"] == "tool":
            if not msg["tool"] and pending:
                msg["tool"] = pending.pop(0)
            elif pending and msg["tool"] in pending:
                pending.remove(msg["tool"])
    return out


# ---------------------------------------------------------------- episodes
def domain_from_text(s):
    s = (s or "")[:400].lower()
    if "retail agent policy" in s or "as a retail agent" in s:
        return "retail"
    if "airline agent policy" in s or "as an airline agent" in s:
        return "airline"
    if "telecom" in s or "technical support" in s:
        return "telecom"
    return None


def episodes_from(data, path):
    """Yield dicts {traj, messages(raw), model, domain, user_model, reward}."""
    # τ²: {"info": {...}, "simulations": [...]}
    if isinstance(data, dict) and isinstance(data.get("simulations"), list):
        info = data.get("info") or {}
        model = ((info.get("agent_info") or {}).get("llm"))
        umodel = ((info.get("user_info") or {}).get("llm"))
        domain = ((info.get("environment_info") or {}).get("domain_name"))
        for i, s in enumerate(data["simulations"]):
            tid = s.get("task_id")
            yield {"traj": "%s/t%s/%d" % (tid, s.get("trial", 0), i), "messages": s.get("messages"),
                   "model": model, "user_model": umodel, "domain": domain,
                   "reward": (s.get("reward_info") or {}).get("reward")}
        return
    # τ² single simulation (one task per file)
    if isinstance(data, dict) and isinstance(data.get("messages"), list) and "task_id" in data:
        yield {"traj": str(data.get("task_id")), "messages": data["messages"], "model": None,
               "user_model": None, "domain": None,
               "reward": (data.get("reward_info") or {}).get("reward")}
        return
    # τ² written as lines: a {"type": "header", "info": {...}} line, then {"type": ..., "simulation": {...}} lines
    if isinstance(data, list) and data and isinstance(data[0], dict) and data[0].get("type") == "header":
        info = data[0].get("info") or {}
        model = ((info.get("agent_info") or {}).get("llm"))
        umodel = ((info.get("user_info") or {}).get("llm"))
        domain = ((info.get("environment_info") or {}).get("domain_name"))
        for i, r in enumerate(data):
            s = r.get("simulation") if isinstance(r, dict) else None
            if not isinstance(s, dict) or not isinstance(s.get("messages"), list):
                continue
            yield {"traj": "%s/t%s/%d" % (s.get("task_id"), s.get("trial", 0), i), "messages": s["messages"],
                   "model": model, "user_model": umodel, "domain": domain,
                   "reward": (s.get("reward_info") or {}).get("reward")}
        return
    # τ-bench: list of {task_id, reward, info, traj, trial}, possibly wrapped in {"results": [...]}
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        data = data["results"]
    if isinstance(data, list):
        for i, r in enumerate(data):
            if not isinstance(r, dict):
                continue
            msgs = r.get("traj")
            if msgs is None:
                msgs = r.get("messages")
            if not isinstance(msgs, list):
                continue
            tid = r.get("task_id", i)
            yield {"traj": "%s/t%s/%d" % (tid, r.get("trial", 0), i), "messages": msgs,
                   "model": None, "user_model": None, "domain": None,
                   "reward": r.get("reward")}


TB_STRATEGIES = ("tool-calling-with-preconditions-and-python", "tool-calling-with-preconditions",
                 "tool-calling-with-dynamic-subtasks", "tool-calling", "assertions-agent",
                 "few-shot", "one-shot", "react", "act")
TB_NAME = re.compile(r"^(?P<strategy>" + "|".join(re.escape(x) for x in TB_STRATEGIES) +
                     r")-(?P<model>.+?)-(?P<temp>\d+(\.\d+)?)_(range_[\d\-]+_)?user-(?P<user>.+?)-(llm|react|verify|reflection)")
T2_NAME = re.compile(r"_(?P<domain>airline|retail|telecom|mock)(_[a-z_]+)?_llm_agent_(?P<model>.+?)_user_simulator_(?P<user>[^/_]+)")


def model_from_path(path):
    base = os.path.basename(path)
    m = T2_NAME.search(path)
    if m:
        return m.group("model"), m.group("domain"), m.group("user")
    m = TB_NAME.search(base)
    if m:
        return m.group("model"), None, m.group("user")
    return None, None, None


def strategy_from_path(path):
    m = TB_NAME.search(os.path.basename(path))
    return m.group("strategy") if m else None


RETAIL_TOOLS = {"find_user_id_by_email", "find_user_id_by_name_zip", "get_order_details", "cancel_pending_order",
                "exchange_delivered_order_items", "return_delivered_order_items", "modify_pending_order_items",
                "modify_pending_order_address", "modify_pending_order_payment", "modify_user_address",
                "get_product_details", "list_all_product_types"}
AIRLINE_TOOLS = {"get_reservation_details", "book_reservation", "update_reservation_flights",
                 "update_reservation_baggages", "update_reservation_passengers", "search_direct_flight",
                 "search_onestop_flight", "cancel_reservation", "send_certificate", "list_all_airports"}
TELECOM_TOOLS = {"get_customer_by_phone", "get_customer_by_id", "get_customer_by_name", "get_details_by_id",
                 "suspend_line", "resume_line", "refuel_data", "enable_roaming", "disable_roaming",
                 "send_payment_request", "get_bills_for_customer", "get_data_usage"}


def domain_from_tools(msgs):
    names = {c["name"] for m in msgs for c in m["calls"]}
    scores = {"retail": len(names & RETAIL_TOOLS), "airline": len(names & AIRLINE_TOOLS),
              "telecom": len(names & TELECOM_TOOLS)}
    best = max(scores, key=lambda k: (scores[k], k))
    return best if scores[best] else None


# ---------------------------------------------------------------- sampling helpers (sample*.py)
ID_KEYS = ('order_id', 'reservation_id', 'user_id')
GO_AHEAD_WORDS = ('proceed', 'confirm', '(yes', 'yes/no', 'would you like me to', 'shall i', 'go ahead')


def last_write(r):
    """The last write before a reply after writes: (the write, its action as `tool on RECORD`, [RECORD])."""
    w = (r.get('writes') or [])[-1]
    try:
        args = json.loads(w.get('args') or '{}')
    except Exception:
        args = {}
    names = [str(args[k]) for k in ID_KEYS if k in args][:1]
    rec = f' on {names[0]}' if names else ''
    return w, f"{w.get('tool')}{rec}", names


def proposing(r):
    """Whether a reply has go-ahead words in it ("proceed", "confirm", "shall I", ...)."""
    return any(w in (r.get('text') or '').lower() for w in GO_AHEAD_WORDS)


def hash_of(s):
    """A stable number of a string (SHA-1): the fixed orders and splits of the samplers."""
    return int(hashlib.sha1(s.encode()).hexdigest(), 16)


def split_of(item_id):
    """The split an item is in, fixed before anything is read: held-out when sha1(id) mod 10 < 4."""
    return 'held-out' if hash_of(item_id) % 10 < 4 else 'tune'


def near_text(t):
    """A key of a text's letters only: texts that differ only in ids and numbers share it."""
    return hashlib.sha1(re.sub(r'[^a-z]+', '', t.lower()).encode()).hexdigest()[:12]


def shipped_keys(paths):
    """The ids and near-duplicate keys of every item in the shipped corpora at `paths`."""
    shipped = [json.loads(l) for p in paths for l in open(p)]
    return {x['id'] for x in shipped}, {near_text(x['text']) for x in shipped}


def new_groups(path, ids, keys, salt):
    """The replies of a raw file that no shipped corpus holds (by id or near-duplicate text), retail and
    airline only, one per near-duplicate text, by (source, model, domain); each group in a fixed order by the
    hash of `salt` and id."""
    by, seen = collections.defaultdict(list), set()
    for line in open(path):
        r = json.loads(line)
        t = (r.get('text') or '').strip()
        if not t or len(t) > 2500 or r['id'] in ids or r.get('domain') not in ('retail', 'airline'):
            continue
        k = near_text(t)
        if k in keys or k in seen:
            continue
        seen.add(k)
        by[(r['source'], r.get('model') or 'unknown', r['domain'])].append(r)
    return {g: sorted(rs, key=lambda r: hash_of(salt + r['id'])) for g, rs in sorted(by.items())}


def provenance(r):
    """Where an item comes from, and its split."""
    return {'id': r['id'], 'source': r['source'], 'commit': r['commit'], 'path': r['path'], 'traj': r['traj'], 'turn': r['turn'],
            'model': r.get('model') or 'unknown', 'domain': r['domain'], 'split': split_of(r['id'])}


def write_claims(f, groups, salt, errors, most, others=None):
    """Per group, up to `most` replies after writes, up to `errors` of them after a write whose result reads
    as an error (the costlier misreading is of a failure), in order by hash; with `others`, up to `errors`
    after an error and up to `others` besides, whatever `most` says. One JSON line each, to label."""
    for rs in groups.values():
        bad = [r for r in rs if (r.get('writes') or [{}])[-1].get('ok') is False][:errors]
        rest = others if others is not None else most - len(bad)
        picked = bad + [r for r in rs if r not in bad][:rest]
        for r in sorted(picked, key=lambda r: hash_of(salt + r['id'])):
            _, action, names = last_write(r)
            f.write(json.dumps({**provenance(r), 'text': r['text'], 'action': action, 'names': names, 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')


def write_turns(f, groups, asking, other):
    """Per group, up to `asking` replies to the user with go-ahead words and up to `other` without; one JSON
    line each, to label."""
    for rs in groups.values():
        for r in [x for x in rs if proposing(x)][:asking] + [x for x in rs if not proposing(x)][:other]:
            f.write(json.dumps({**provenance(r), 'text': r['text'], 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')


def sample_batch(argv, name, claims, turns):
    """A later batch to label, from the command line `RAW_DIR CLAIMS_OUT TURNS_OUT SHIPPED...`: per source,
    model and domain, the replies after writes (`claims`: how many after an error-looking write, how many in
    all, and optionally how many others whatever the count in all) and the replies to the user (`turns`: how many with go-ahead words, how many without), none of them
    in a shipped corpus by id or near-duplicate text, in a fixed order by the hash of `name` and id."""
    raw, claims_out, turns_out, *shipped_paths = argv
    ids, keys = shipped_keys(shipped_paths)
    with open(claims_out, 'w') as f:
        write_claims(f, new_groups(f'{raw}/claims.raw.jsonl', ids, keys, f'{name}:'), f'{name}:', *claims)
    with open(turns_out, 'w') as f:
        write_turns(f, new_groups(f'{raw}/turns.raw.jsonl', ids, keys, f'{name}-turns:'), *turns)


def sample_weighted(argv, name, errors, zero):
    """A batch weighted to failures, from the command line `RAW_DIR CLAIMS_OUT SHIPPED...`: per source, model and domain, up to
    `errors` replies after a write whose result reads as an error (all of them with None) and up to `zero` more from episodes the
    source scored 0, none of them in a shipped corpus by id or near-duplicate text, in a fixed order by the hash of `name` and id.
    Nothing of the reader's is used to choose."""
    raw, out, *shipped = argv
    ids, keys = shipped_keys(shipped)
    salt, n = f'{name}:', 0
    with open(out, 'w') as f:
        for rs in new_groups(f'{raw}/claims.raw.jsonl', ids, keys, salt).values():
            bad = [r for r in rs if (r.get('writes') or [{}])[-1].get('ok') is False][:errors]
            scored0 = [r for r in rs if r not in bad and r.get('episode_reward') == 0][:zero]
            for r in sorted(bad + scored0, key=lambda r: hash_of(salt + r['id'])):
                _, action, names = last_write(r)
                f.write(json.dumps({**provenance(r), 'text': r['text'], 'action': action, 'names': names, 'user_before': r.get('user_before')}, ensure_ascii=False) + '\n')
                n += 1
    print('claims', n)
