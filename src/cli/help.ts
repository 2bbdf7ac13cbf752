/** The command line's help: the whole usage text, and one command's part of it (`shakedown COMMAND --help`). */

export const USAGE = `Usage: shakedown <command> [options]

Commands:
  sweep      run agents x ε x λ x scenarios x trials and write a run directory
  validate   check every scenario: gold succeeds, noop fails, oracle passes at ε = λ = 0
  selftest   run the planted-bug agents and a control: each bug must be caught where it bites
  calibrate  compare a claim reader (the default, or --judge llm:MODEL) with hand labels: Cohen's kappa
  user       feed agent messages to a scenario's simulated user: what it finds asked and answers
  list       list scenarios | tools | agents | perturbations | faults | profiles | strategies | worlds
  replay     rerun one episode and print its conversation, faults, trace and verdict
  perturb    print perturbed samples of a scenario's first message beside the original
  ladder     measure the ε ladder: mean distance of perturbed messages from the original per ε
  faults     print the faults a seed plans for one episode: which calls fail and how
  serve-tools  serve a world's tools over loopback HTTP for agents in other processes
  stub-llm   serve a local model (OpenAI and Anthropic wire formats) that plays the desk: LLM paths without a key
  stats      surface summaries, failures by class, fault kind and family, unstable tasks of a run
  compare    paired comparison of two runs (RUN_A RUN_B) or two agents of one run (RUN --agents A,B)
  plan       tasks and trials needed for an interval width (--width) or a difference to detect (--detect)
  report     heatmaps (SVG, PNG), report.html, grid.csv and summary.md of a run (a sweep writes them to RUN/report)
  merge      merge the run directories of shards (--shard I/N) into one: DIR... --out OUT
  rejudge    apply the current judge to a finished run without running its agents again: RUN
  gate       go/no-go for a release: RUN --rule 'pass^4 >= 0.8 where eps <= 0.2' (exit 1 on no-go)
  init       write a commented starter shakedown.config.ts (flags override its keys; --config FILE)
  world init DIR --from-openapi SPEC   write a world from an OpenAPI 3 document (docs/your-tools.md)
  world init DIR --from-mcp "COMMAND"  write a world over an MCP server, started fresh per episode
  world init DIR --from-openapi SPEC --base-url URL --reset "POST /reset"   a world over your running service

Every command that takes sweep options reads shakedown.config.{ts,mts,js,mjs,json,yaml,yml} from the
current directory (or --config FILE) first and says which; flags override its keys. \`shakedown COMMAND
--help\` shows one command's options.

Sweep options:
  --world ID|PATH     world to sweep: retail, travel, or a world module (default retail)
  --seed S            run seed (default 42)
  --out DIR           run directory (default runs/<time>)
  --agent SPEC        agent, repeatable or comma-separated (default oracle,noop,reference-strict:none,reference:none,reference:retry,reference:idempotency+backoff,reference:robust);
                      a built-in, a module (./agent.ts), a service (http://...), a command launched per
                      episode (cmd:node ./agent.mjs; tools over MCP), llm:MODEL or anthropic:MODEL
  --eps LIST          ε values in [0, 1] (default 0,0.5,1)
  --lambda LIST       λ values in [0, 1] (default 0,0.1,0.3)
  --trials N          trials per cell and task (default 4)
  --scenario F        scenario id, id substring, category:NAME or family:ID; repeatable (default all)
  --tasks T           hand (default: the hand-written scenarios), all (with their families' validated
                      variants: the release set) or N (a seeded sample stratified by category and family)
  --concurrency N     episodes in flight (default 8)
  --workers N|auto    worker threads running episodes; 1 = this process (default auto: every core for
                      built-in agents and 1,000+ episodes)
  --worker-max-memory MB  replace a worker whose heap passes MB after a batch (default 160)
  --profile ID        fault profile (default mixed)
  --perturbations L   perturbation families to apply, comma-separated (default all)
  --fault-tools L     only these tools may fault, comma-separated (default all)
  --fault-access A    only \`read\` or only \`write\` calls may fault (default both)
  --outage-ms N       bursty faults: each fault opens an outage of N simulated ms
  --real-wait-scale F real ms a fault waits per simulated ms, for agents with own timers (default 0)
  --agent-time T      what moves the episode clock besides simulated waits: simulated, real (the
                      agent's own time), model:MS (per model call) or auto (default: real for HTTP,
                      command and LLM agents, simulated for the rest); see docs/faults.md
  --llm-base-url URL  OpenAI-compatible API for \`llm:MODEL\` agents (default https://api.openai.com/v1)
  --anthropic-base-url URL  Messages API for \`anthropic:MODEL\` agents (default https://api.anthropic.com/v1)
  --llm-api-key-env V environment variable holding its API key (default OPENAI_API_KEY)
  --llm-tools T       how llm: and anthropic: agents take their tools: http (default) or mcp (an
                      MCP client on the episode's MCP server)
  --llm-cache C       cache model answers so that a resumed or repeated run never pays twice: off
                      (default), run (RUN/llm-cache) or a directory shared by runs
  --simulator S       simulated user: scripted (default) or llm (free-form, with the llm settings)
  --simulator-model M model for the LLM user, when it should differ from the agent's
  --fixed-trials      hold wording and faults fixed across trials
  --adaptive N        adaptive trials: N for every task, the rest of --trials only where results are mixed
  --ablate W          faults | perturbations: one sub-run per fault kind or family, alone, and a table
  --fault-weights L   a custom fault mix, e.g. timeout=1,rate-limit=0.5 (over the profile's)
  --max-turns N       user turns per episode (default 12)
  --judge J           claim reader: wording (default) or llm:MODEL, accepted when its kappa on the
                      world's hand labels reaches --judge-min-kappa (default 0.8); see \`calibrate\`
  --deadline-ms N     wall-clock limit per episode (default 60000)
  --tool-budget N     most tool calls per episode; a runaway loop ends there as an error (default 2000)
  --limit NAME=N      a bound on what an agent sends and holds (replyBytes, requestBytes, episodeBytes,
                      lineBytes, memoryMb, hangMs, loadMs; see docs/agents.md); repeatable
  --env NAME          an environment variable given to module and command agents (repeatable); they get
                      no other variable of this process but PATH, HOME, LANG and the like
  --quiet             no progress lines
  --max-episodes N    stop launching after N episodes (resumable)
  --fail-fast N       stop launching after N episodes of the agents under test ended in an error (resumable)
  --time-limit S      stop launching after S seconds of wall time (resumable)
  --max-cost USD      stop once LLM spend passes USD (prices per model in the config's \`prices\`)
  --resume            continue the run in --out: skip finished episodes (same options, or --force;
                      more --trials than the run had extend it)
  --force             resume with other options, knowingly
  --config FILE       the config file (default shakedown.config.* in this directory)
  --otel FILE|URL     export each episode as an OpenTelemetry trace (GenAI conventions) to an OTLP/HTTP
                      endpoint (http://localhost:4318) or a file of OTLP JSON lines; docs/traces.md
  --shard I/N         run part I of N of the episode keys (merge the parts with \`shakedown merge\`)
                      --shard auto reads I (and N) from the engine's index variables: SHAKEDOWN_SHARD_INDEX/
                      _COUNT, JOB_COMPLETION_INDEX (Kubernetes; auto/N), CI_NODE_INDEX/_TOTAL (GitLab),
                      CIRCLE_NODE_INDEX/_TOTAL, BUILDKITE_PARALLEL_JOB/_COUNT, SYSTEM_JOBPOSITIONINPHASE

Perturb options: --scenario ID --eps E [--samples N] plus --seed, --world, --perturbations; sample i is
  what trial i of a sweep with that seed sees first.
Ladder options: [--levels LIST] (default 0,0.1,...,1) [--samples N] (default 8) plus --seed, --world,
  --scenario, --perturbations.

Faults options: --scenario ID --lambda L [--trial T] [--calls N] (default 5) plus --seed, --profile,
  --fault-tools, --fault-access, --outage-ms, --fixed-trials; --json for machine output.
Stats options: RUN [--theta T] (default 0.8) [--json].
Compare options: RUN_A RUN_B [--agent ID] [--k K], or RUN --agents A,B [--k K]; [--adjust holm|bh]
  (default holm); [--force] (compare runs judged or simulated differently, which is refused otherwise).
Merge options: DIR... --out OUT (the shards of one sweep; missing shards are named) [--force] (merge
  runs judged or simulated differently). A merge stopped or killed mid-way is run again the same way.
Rejudge options: RUN [--out DIR] (default RUN-rejudged) [--judge wording|llm:MODEL] (default the run's)
  [--llm-cache C] (default the run's: an LLM judge's answers from RUN/llm-cache are not paid for again):
  each episode's tool calls are made again on a fresh world, on its own fault schedule, and the current
  judge reads the result; no agent or model runs. Writes a run with its grid and report; episodes that
  no longer replay as recorded are named and keep their verdict.
Validate options: [--world W] [--scenario F] [--seed S] [--tasks all]: every scenario must hold (exit 1 if
  one does not); with --tasks all, per family how many generated variants hold and why the others are left out.
List options: worlds | scenarios [--world W] | tools [--world W] [--format md] (the tool reference) |
  perturbations | faults | agents | strategies | profiles.
Init options: none; it refuses to overwrite an existing shakedown.config.ts.
Plan options: --width W | --detect D [--power P] (default 0.8), --pass P | --pilot RUN [--agent ID |
  --agents A,B], [--k K] (default 1) [--trials LIST] (default k,2k,4k) [--cells N] [--price USD per episode].
Report options: RUN [--otel FILE|URL] (the run's episodes as OpenTelemetry traces, docs/traces.md) [--k K] (default n; the heatmap figures and PNGs are at k) [--format svg,png,html,md,csv]
  [--out DIR] (default RUN/report) [--baseline RUN_B | --baseline-agent ID] (per-task changes against
  another run, or against another agent of this run: regressions first, both sides' episodes a click away).
Gate options: RUN --rule R (repeatable) [--lower] (judge the interval's lower bound) [--agent ID] (gate
  this agent; default: the run's candidates, never its comparators) [--baseline RUN_B --max-regression D]
  [--junit FILE] [--allow-partial] (gate an incomplete run, saying so) [--force] (a baseline judged or
  simulated differently, or records that do not verify or lie outside the run's plan, gated saying so); the
  verdict is kept in RUN/gate.json (one per set of rules) and shown at the top of summary.md and report.html.
Serve-tools options: --scenario ID [--lambda L] [--trial T] [--port N] (default 0: any free port) [--mcp]
  (MCP on stdio instead of HTTP; the HTTP server also serves MCP at <episode>/mcp) plus --seed, --world,
  --profile, --real-wait-scale (default 0.001 here); see docs/faults.md.

User options: --scenario ID [--world W] [--fresh] (each message as the first reply of a new episode)
  [--json] [MESSAGE ...] (or JSON lines on stdin: a string or {"text": ...} each).
Selftest options: [--world retail|travel|all] (default all) [--trials N] (default 2) [--only ID,...]
  [--mutants FILE] (default src/run/mutants.ts) [--json]; exit 1 when a mutant is missed or a
  control differs from its base.
Calibrate options: [--judge wording|llm:MODEL] (default wording) [--labels FILE|real|real:BATCH] (default
  the world's shipped labels; \`real\`: every shipped batch of real agents' replies, corpora/claims.*.jsonl)
  [--world W] [--json], plus the --llm-* options for an LLM judge.

Stub-llm options: [--port N] (default 8787; 0 for any free port) [--delay-ms MS] (answer after MS, as a
  remote model would); serves until Ctrl-C and prints the sweeps to try with it (docs/agents.md).
Replay options: --scenario ID --agent SPEC --eps E --lambda L --trial T, plus --seed, --world, --profile,
  --fixed-trials and --max-turns as in the sweep; --json prints the episode record.
`;

/** One command's help: its line from the command list and its options, from the usage text. */
export function commandHelp(command: string): string | undefined {
  const line = USAGE.split('\n').find((l) => new RegExp(`^  ${command.replace(/[-]/g, '\\-')}\\s`).test(l));
  if (!line) return undefined;
  const title = `${command.charAt(0).toUpperCase()}${command.slice(1)} options:`;
  const lines = USAGE.split('\n');
  const start = lines.findIndex((l) => l.startsWith(title));
  let block: string[] = [];
  if (start >= 0) {
    block = [lines[start] as string];
    for (let i = start + 1; i < lines.length && /^\s/.test(lines[i] as string) && (lines[i] as string).trim() !== ''; i++) block.push(lines[i] as string);
  }
  // Commands that take the sweep's options say so; their own block comes first.
  const sweepLike = ['sweep', 'validate', 'replay', 'perturb', 'ladder', 'faults', 'serve-tools', 'selftest', 'calibrate', 'user'].includes(command);
  const note = sweepLike && command !== 'sweep' ? ['', 'It reads the config file as a sweep does (--config FILE); the sweep options above it apply where they make sense (shakedown sweep --help).'] : [];
  return [`Usage: shakedown ${command} [options]`, '', line.trim(), '', ...(block.length > 0 ? block : ['(no options)']), ...note, ''].join('\n');
}
