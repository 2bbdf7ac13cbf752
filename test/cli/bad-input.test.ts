import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

/** Runs the CLI in-process and returns its exit code and error output. */
async function run(...argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(argv, { out: () => undefined, err: (t) => (err += t), tty: false });
  return { code, err: err.trim() };
}

const CASES: readonly (readonly string[])[] = [
  ['teleport'],
  ['sweep', '--eps', '1.5'],
  ['sweep', '--eps', 'abc'],
  ['sweep', '--trials', '0'],
  ['sweep', '--concurrency', '-1'],
  ['sweep', '--workers', 'many'],
  ['sweep', '--workers', '0'],
  ['sweep', '--worker-max-memory', '8'],
  ['sweep', '--world', 'hotel'],
  ['sweep', '--world', './no-such-world.ts'],
  ['sweep', '--world', 'travel', '--fault-tools', 'cancel_order'],
  ['sweep', '--agent', 'gpt'],
  ['sweep', '--agent', 'reference:teleport'],
  ['sweep', '--agent', 'reference:retry+backoff'],
  ['sweep', '--agent', './no-such-agent.ts'],
  ['sweep', '--agent', 'cmd:shakedown-no-such-command'],
  ['sweep', '--llm-tools', 'carrier-pigeon'],
  ['sweep', '--tasks', 'most'],
  ['sweep', '--scenario', 'family:no-such-family'],
  ['sweep', '--agent', 'llm:gpt-4o-mini+backoff', '--llm-tools', 'mcp'],
  ['sweep', '--profile', 'hurricane'],
  ['sweep', '--perturbations', 'typos,wat'],
  ['sweep', '--fault-tools', 'teleport'],
  ['sweep', '--fault-access', 'sometimes'],
  ['sweep', '--fault-weights', 'timeout'],
  ['sweep', '--scenario', 'no-such-scenario'],
  ['sweep', '--shard', '0/3'],
  ['sweep', '--adaptive', '5'],
  ['sweep', '--simulator', 'robot'],
  ['sweep', '--llm-api-key-env', '1BAD'],
  ['sweep', '--config', 'no-such.config.json'],
  ['sweep', '--bogus'],
  ['sweep', '--trails', '2'],
  ['sweep', '--scenario', 'read-order-stauts'],
  ['sweep', '--scenario', 'category:topup'],
  ['swep'],
  ['list', 'bananas'],
  ['replay', '--scenario', 'x'],
  ['perturb', '--scenario', 'return-two-items'],
  ['faults', '--scenario', 'return-two-items'],
  ['gate', '.', '--rule', 'pass^2 >= lots'],
];

describe('bad input', () => {
  it('gets a clear error that says what to fix, and exit code 2, for every case', async () => {
    const results: string[] = [];
    for (const argv of CASES) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(/^shakedown: Failed to /);
      results.push(`${argv.join(' ')}\n  ${r.err.replace(/^shakedown: /, '').replaceAll(process.cwd(), '<cwd>').split('\n').join('\n  ')}`);
    }
    expect(results).toMatchInlineSnapshot(`
      [
        "teleport
        Failed to run \`shakedown teleport\`: no such command. Commands: sweep, validate, selftest, calibrate, user, list, replay, perturb, ladder, faults, serve-tools, stub-llm, stats, compare, plan, report, merge, rejudge, gate, init, world.",
        "sweep --eps 1.5
        Failed to resolve the sweep configuration:
        ✖ must be in [0, 1]
          → at eps[0]
        Fix the options named above.",
        "sweep --eps abc
        Failed to read \`--eps\`: "abc" is not a comma-separated list of numbers. Write e.g. \`--eps 0,0.1,0.3\`.",
        "sweep --trials 0
        Failed to resolve the sweep configuration:
        ✖ Too small: expected number to be >=1
          → at trials
        Fix the options named above.",
        "sweep --concurrency -1
        Failed to read the options of \`shakedown sweep\`: Option '--concurrency' argument is ambiguous.
        Did you forget to specify the option argument for '--concurrency'?
        To specify an option argument starting with a dash use '--concurrency=-XYZ'. Run \`shakedown --help\` for the options.",
        "sweep --workers many
        Failed to read \`--workers\`: "many" is neither a whole number nor \`auto\`. Write e.g. \`--workers 2\` (1 runs episodes in this process).",
        "sweep --workers 0
        Failed to resolve the sweep configuration:
        ✖ must be 1 (this process) or more, or "auto"
          → at workers
        Fix the options named above.",
        "sweep --worker-max-memory 8
        Failed to resolve the sweep configuration:
        ✖ must be at least 16 (MB)
          → at workerMaxMemoryMb
        Fix the options named above.",
        "sweep --world hotel
        Failed to find world \`hotel\`: no such world. Built-in worlds: retail, travel; or a world module path such as ./my-world/index.ts (see docs/worlds.md).",
        "sweep --world ./no-such-world.ts
        Failed to load world module \`./no-such-world.ts\`: no such file (looked at <cwd>/no-such-world.ts). Check the path; it is relative to the current directory.",
        "sweep --world travel --fault-tools cancel_order
        Failed to target faults at tool \`cancel_order\`: world travel has no such tool. Tools: find_user_by_email, find_user_by_name_dob, get_user, list_user_reservations, get_reservation, search_flights, get_flight_status, cancel_reservation, change_flight, update_baggage, issue_compensation.",
        "sweep --agent gpt
        Failed to find agent \`gpt\`: no such agent. Built-in agents: noop, oracle, reference, reference-strict (e.g. reference:retry); or a module path (./my-agent.ts), a service URL (http://...), a command (cmd:node ./agent.mjs), llm:MODEL or anthropic:MODEL.",
        "sweep --agent reference:teleport
        Failed to find strategy \`teleport\`: no such strategy. Valid strategy ids: none, retry, backoff, idempotency, verify, breaker, tolerant, fallback, escalate, robust.",
        "sweep --agent reference:retry+backoff
        Failed to compose strategies \`retry+backoff\`: \`retry\` and \`backoff\` are two ways to retry; pick one.",
        "sweep --agent ./no-such-agent.ts
        Failed to load agent module \`./no-such-agent.ts\`: no such file (looked at <cwd>/no-such-agent.ts). Check the path; it is relative to the current directory.",
        "sweep --agent cmd:shakedown-no-such-command
        Failed to start the agent command \`shakedown-no-such-command\`: the shell could not run it (exit 127); its stderr ended with: /bin/sh: 1: shakedown-no-such-command: not found. Check the command and the current directory.",
        "sweep --llm-tools carrier-pigeon
        Failed to read \`--llm-tools\`: "carrier-pigeon" is neither \`http\` nor \`mcp\`. Write \`--llm-tools mcp\` for tools over an MCP client, or leave it out (http).",
        "sweep --tasks most
        Failed to read \`--tasks\`: "most" is not \`hand\`, \`all\` or a number. Write \`--tasks all\` for every validated task, \`--tasks 60\` for a sample.",
        "sweep --scenario family:no-such-family
        Failed to select scenarios: \`--scenario family:no-such-family\` matches none. Families: address-change-name-zip, address-change-pending, ambiguous-two-lamps, ambiguous-two-lamps-total, ambiguous-two-tees-exchange, cancel-gift-card-refund, cancel-pending-mistake, cancel-pending-no-longer-needed, decline-cancel-pending, decline-return, decline-top-up, exchange-keyboard-refund-to-gift-card, exchange-shoes-price-difference, exchange-tee-color, identity-mismatch-then-email-return, missing-info-cancel, missing-info-return-by-item, missing-info-status, multi-cancel-and-address, multi-cancel-two-orders, multi-return-then-status, multi-top-up-then-cancel, ownership-cancel-other-users-order, ownership-status-other-users-order, read-after-return-gift-card-balance, read-after-top-up-balance, read-gift-card-balance, read-order-status, read-order-status-name-zip, read-order-total, refusal-address-processed, refusal-cancel-already-cancelled, refusal-cancel-delivered, refusal-return-pending, return-one-of-two, return-to-gift-card, return-to-original, return-two-items, top-up-gift-card, top-up-name-zip-paypal.",
        "sweep --agent llm:gpt-4o-mini+backoff --llm-tools mcp
        Failed to select \`+backoff\` with \`llm.tools: mcp\`: strategies wrap tool calls made over HTTP, and over MCP the tools are called through an MCP client. Drop the strategies, or take the tools over HTTP.",
        "sweep --profile hurricane
        Failed to find fault profile \`hurricane\`: no such fault profile. Valid fault profile ids: mixed, lying, network, timeouts, rate-limit, server, drift, empty, timeout-after-commit, outage.",
        "sweep --perturbations typos,wat
        Failed to find perturbation family \`wat\`: no such perturbation family. Valid perturbation family ids: spread, paraphrase, self-correct, reorder, distractor, verbosity, filler, synonyms, chat-speak, entity-format, typos, casing.",
        "sweep --fault-tools teleport
        Failed to target faults at tool \`teleport\`: world retail has no such tool. Tools: find_user_by_email, find_user_by_name_zip, get_user, list_user_orders, get_order, get_product, cancel_order, change_order_address, return_items, exchange_items, add_gift_card_funds.",
        "sweep --fault-access sometimes
        Failed to resolve the sweep configuration:
        ✖ Invalid option: expected one of "read"|"write"
          → at faultAccess
        Fix the options named above.",
        "sweep --fault-weights timeout
        Failed to read \`--fault-weights\`: "timeout" is not KIND=WEIGHT. Write e.g. \`--fault-weights timeout=1,rate-limit=0.5\`.",
        "sweep --scenario no-such-scenario
        Failed to select scenarios: \`--scenario no-such-scenario\` matches none. Scenario ids: address-change-name-zip, address-change-pending, ambiguous-two-lamps, ambiguous-two-lamps-total, ambiguous-two-tees-exchange, cancel-gift-card-refund, cancel-pending-mistake, cancel-pending-no-longer-needed, decline-cancel-pending, decline-return, decline-top-up, exchange-keyboard-refund-to-gift-card, exchange-shoes-price-difference, exchange-tee-color, identity-mismatch-then-email-return, missing-info-cancel, missing-info-return-by-item, missing-info-status, multi-cancel-and-address, multi-cancel-two-orders, multi-return-then-status, multi-top-up-then-cancel, ownership-cancel-other-users-order, ownership-status-other-users-order, read-after-return-gift-card-balance, read-after-top-up-balance, read-gift-card-balance, read-order-status, read-order-status-name-zip, read-order-total, refusal-address-processed, refusal-cancel-already-cancelled, refusal-cancel-delivered, refusal-return-pending, return-one-of-two, return-to-gift-card, return-to-original, return-two-items, top-up-gift-card, top-up-name-zip-paypal.",
        "sweep --shard 0/3
        Failed to read \`--shard 0/3\`: write i/n with 1 <= i <= n, e.g. \`--shard 2/4\`, or \`--shard auto\` to read the index from the CI or Kubernetes variables (\`auto/N\` in a Kubernetes Indexed Job).",
        "sweep --adaptive 5
        Failed to resolve the sweep configuration:
        ✖ the first round needs 2 to 3 trials (fewer than \`trials\`, 4)
          → at adaptiveFirstTrials
        Fix the options named above.",
        "sweep --simulator robot
        Failed to resolve the sweep configuration:
        ✖ Invalid option: expected one of "scripted"|"llm"
          → at simulator
        Fix the options named above.",
        "sweep --llm-api-key-env 1BAD
        Failed to resolve the sweep configuration:
        ✖ must be an environment variable name
          → at llm.apiKeyEnv
        Fix the options named above.",
        "sweep --config no-such.config.json
        Failed to read the config file no-such.config.json: no such file. Check \`--config\`, or run \`shakedown init\` to write one.",
        "sweep --bogus
        Failed to read the options of \`shakedown sweep\`: Unknown option '--bogus'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--bogus". Run \`shakedown --help\` for the options.",
        "sweep --trails 2
        Failed to read the options of \`shakedown sweep\`: \`--trails\` is not an option; did you mean \`--trials\`? Run \`shakedown --help\` for the options.",
        "sweep --scenario read-order-stauts
        Failed to select scenarios: \`--scenario read-order-stauts\` matches none. Did you mean \`read-order-status\` or \`read-order-total\`? Scenario ids: address-change-name-zip, address-change-pending, ambiguous-two-lamps, ambiguous-two-lamps-total, ambiguous-two-tees-exchange, cancel-gift-card-refund, cancel-pending-mistake, cancel-pending-no-longer-needed, decline-cancel-pending, decline-return, decline-top-up, exchange-keyboard-refund-to-gift-card, exchange-shoes-price-difference, exchange-tee-color, identity-mismatch-then-email-return, missing-info-cancel, missing-info-return-by-item, missing-info-status, multi-cancel-and-address, multi-cancel-two-orders, multi-return-then-status, multi-top-up-then-cancel, ownership-cancel-other-users-order, ownership-status-other-users-order, read-after-return-gift-card-balance, read-after-top-up-balance, read-gift-card-balance, read-order-status, read-order-status-name-zip, read-order-total, refusal-address-processed, refusal-cancel-already-cancelled, refusal-cancel-delivered, refusal-return-pending, return-one-of-two, return-to-gift-card, return-to-original, return-two-items, top-up-gift-card, top-up-name-zip-paypal.",
        "sweep --scenario category:topup
        Failed to select scenarios: \`--scenario category:topup\` matches none. Did you mean category:top-up? Categories: address, ambiguous, cancel, decline, exchange, identity, missing-info, multi-step, ownership, read, read-after-write, refusal, return, top-up.",
        "swep
        Failed to run \`shakedown swep\`: no such command. Did you mean \`shakedown sweep\`? Commands: sweep, validate, selftest, calibrate, user, list, replay, perturb, ladder, faults, serve-tools, stub-llm, stats, compare, plan, report, merge, rejudge, gate, init, world.",
        "list bananas
        Failed to list \`bananas\`: say what to list, one of scenarios, tools, agents, perturbations, faults, profiles, strategies, worlds.",
        "replay --scenario x
        Failed to replay: missing \`--agent\`, \`--eps\`, \`--lambda\`, \`--trial\`. Copy the replay command a sweep prints.",
        "perturb --scenario return-two-items
        Failed to perturb: give one \`--scenario ID\` and one \`--eps E\`, e.g. \`shakedown perturb --scenario cancel-pending-mistake --eps 0.4 --samples 5\`.",
        "faults --scenario return-two-items
        Failed to show faults: give one \`--scenario ID\` and one \`--lambda L\`, e.g. \`shakedown faults --scenario return-two-items --lambda 0.3 --trial 2\`.",
        "gate . --rule pass^2 >= lots
        Failed to read the gate rule "pass^2 >= lots": it is not METRIC OP NUMBER [where CONDITIONS]. Write e.g. \`pass^4 >= 0.8 where eps <= 0.2 and lambda <= 0.2\` (metric pass^K or pass@K; conditions on eps and lambda joined by "and").",
      ]
    `);
  });
});
