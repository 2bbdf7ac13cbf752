import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bin, shakedown, shakedownIn } from '../cli-run.js';



const SMALL = ['--agent', 'oracle,noop', '--agent', 'reference:none', '--agent', 'reference:retry', '--eps', '0,0.5', '--lambda', '0,0.3', '--trials', '2', '--scenario', 'category:cancel', '--scenario', 'return-to-gift-card'];

describe('shakedown sweep (end to end)', () => {
  it('writes run.json, episodes.jsonl and grid.json and prints the pass^k table', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-e2e-')), 'run');
    const r = await shakedown('sweep', '--out', out, '--seed', '7', ...SMALL);
    expect(r.stderr).toContain('128 episodes');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/reference:retry {2}\(4 tasks x 2 trials per cell/);
    expect(r.stdout).toMatch(/pass\^1 +pass\^2/);

    expect(r.stdout).toMatch(/^ {2}reference:none vs reference:retry: better in \d+, worse in \d+, no detectable difference in \d+ of 4 cells(; smallest detectable \d\.\d\d \(median\))?(; \d+ task cell\(s\) changed in every trial .*)?$/m);
    expect(r.stdout).toMatch(/^ {2}surface: volume [\d.]+ \(pass\^1\)/m);
    const stats = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8'));
    expect(stats.comparisons.map((c: { a: string; b: string }) => `${c.a}/${c.b}`)).toEqual(['reference:none/reference:retry']);
    expect(stats.agents[0].surfaces.map((x: { k: number }) => x.k)).toEqual([1, 2]);
    expect(Array.isArray(stats.unstable)).toBe(true);
    for (const cell of stats.agents.flatMap((a: { cells: { passHatK: { value: number; ci95: [number, number] }[] }[] }) => a.cells)) {
      for (const e of cell.passHatK) expect(e.ci95[0] <= e.value + 1e-9 && e.value <= e.ci95[1] + 1e-9).toBe(true);
    }
    // The sweep writes its report: per agent a figure at k = n as SVG and PNG (for slides) and the small
    // multiples of every k as SVG, the difference maps, the grid as CSV, summary.md.
    const files = readdirSync(join(out, 'report')).sort();
    expect(files).toEqual(expect.arrayContaining(['grid.csv', 'summary.md', 'report.html', 'heatmap-reference-retry.svg', 'heatmap-reference-retry-pass2.svg', 'heatmap-reference-retry-pass2.png', 'difference-reference-none-vs-reference-retry.svg', 'difference-reference-none-vs-reference-retry.png']));
    expect(files).not.toContain('heatmap-reference-retry.png');
    // --k picks the slide figures.
    const k1 = await shakedown('report', out, '--format', 'png', '--k', '1', '--out', join(out, 'k1'));
    expect(k1.code, k1.stderr).toBe(0);
    expect(readdirSync(join(out, 'k1'))).toContain('heatmap-reference-retry-pass1.png');
    const report = await shakedown('report', out, '--format', 'md,csv', '--k', '1', '--out', join(out, 'r2'), '--baseline', out);
    expect(report.code).toBe(0);
    expect(readdirSync(join(out, 'r2')).sort()).toEqual(['grid.csv', 'summary.md']);
    expect(readFileSync(join(out, 'r2', 'summary.md'), 'utf8')).toMatch(/## Biggest changes against run/);
    expect((await shakedown('report', out, '--format', 'pdf')).stderr).toMatch(/unknown format `pdf`. Formats: svg, png, html, md, csv/);
    expect((await shakedown('report', out, '--k', '9')).stderr).toMatch(/`--k 9` is out of range; this run has pass\^1..pass\^2/);
    const go = await shakedown('gate', out, '--rule', 'pass^1 >= 0 where lambda <= 0.3', '--junit', join(out, 'junit.xml'));
    expect(go.code).toBe(0);
    expect(go.stdout).toMatch(/^gate: GO/m);
    const noGo = await shakedown('gate', out, '--rule', 'pass^2 >= 1', '--lower');
    expect(noGo.code).toBe(1);
    expect(noGo.stdout).toMatch(/^gate: NO-GO/m);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuites name="shakedown gate" tests="\d+" failures="0">/);
    expect(readFileSync(join(out, 'report', 'summary.md'), 'utf8')).toMatch(/## Release gate: NO-GO/);
    expect((await shakedown('gate', out, '--rule', 'pass^2 >= lots')).stderr).toMatch(/Failed to read the gate rule/);
    const manifest = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(manifest).toMatchObject({ schemaVersion: 1, seed: '7', world: 'retail', node: process.version, episodes: 128 });
    expect(manifest.grid).toEqual({ eps: [0, 0.5], lambda: [0, 0.3], trials: 2, scenarios: ['cancel-gift-card-refund', 'cancel-pending-mistake', 'cancel-pending-no-longer-needed', 'return-to-gift-card'] });
    expect(manifest.agents.map((a: { id: string }) => a.id)).toEqual(['oracle', 'noop', 'reference:none', 'reference:retry']);

    const lines = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(128);
    expect(new Set(lines.map((l) => JSON.stringify(l.key))).size).toBe(128);
    for (const l of lines) {
      expect(['pass', 'fail', 'error']).toContain(l.outcome);
      if (l.outcome === 'pass') expect(l.replay).toBeUndefined();
      else expect(l.replay).toBe(`npx shakedown replay --world retail --seed 7 --profile mixed --scenario ${l.key.scenario} --agent ${l.key.agent} --eps ${l.key.eps} --lambda ${l.key.lambda} --trial ${l.key.trial}`);
      expect(l.seeds.run).toBe('7');
      expect(l.messages[0].role).toBe('user');
    }
    expect(lines.some((l) => l.faults.length > 0)).toBe(true);

    const grid = JSON.parse(readFileSync(join(out, 'grid.json'), 'utf8'));
    expect(grid.agents.map((a: { agent: string }) => a.agent)).toEqual(['oracle', 'noop', 'reference:none', 'reference:retry']);
    const oracle = grid.agents[0].cells.find((c: { eps: number; lambda: number }) => c.eps === 0 && c.lambda === 0);
    expect(oracle.passHatK.map((e: { value: number }) => e.value)).toEqual([1, 1]);
    expect(oracle.perTask).toHaveLength(4);
    // The grid recomputed from the log agrees with the episodes: count passes by hand for one cell.
    const handCount = lines.filter((l) => l.key.agent === 'reference:none' && l.key.eps === 0.5 && l.key.lambda === 0.3 && l.outcome === 'pass').length;
    const cell = grid.agents[2].cells.find((c: { eps: number; lambda: number }) => c.eps === 0.5 && c.lambda === 0.3);
    expect(cell.passHatK[0].value).toBeCloseTo(handCount / 8, 12);
  });

  it('gives the same grid twice for one seed', async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-det-'));
    await shakedown('sweep', '--out', join(base, 'a'), '--quiet', ...SMALL);
    await shakedown('sweep', '--out', join(base, 'b'), '--quiet', '--concurrency', '1', ...SMALL);
    expect(readFileSync(join(base, 'a', 'grid.json'), 'utf8')).toBe(readFileSync(join(base, 'b', 'grid.json'), 'utf8'));
    // Statistics come from the logs: stats prints surfaces and unstable tasks; compare finds the two runs identical.
    const stats = await shakedown('stats', join(base, 'a'));
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/^reference:retry\n {2}k {2}volume {2}slope ε/m);
    expect(stats.stdout).toMatch(/^unstable tasks \(0 < successes < trials\)/m);
    const same = await shakedown('compare', join(base, 'a'), join(base, 'b'));
    expect(same.stdout).toMatch(/Cohen's kappa 1.000/);
    expect(same.stdout).not.toMatch(/ better| worse/);
    const agents = await shakedown('compare', join(base, 'a'), '--agents', 'reference:retry,noop');
    expect(agents.stdout).toMatch(/reference:retry against noop/);
    // Four tasks cannot make any difference significant (the smallest sign-flip p is 2/16): said so, not hidden.
    expect(agents.stdout).toMatch(/\+1\.000 .*no detectable difference/);
    expect((await shakedown('compare', join(base, 'a'), '--agents', 'reference:retry,ghost')).stderr).toMatch(/has no agent `ghost`/);
    expect((await shakedown('stats', join(base, 'missing'))).stderr).toMatch(/has no run\.json\. Give the directory a sweep wrote/);
  });

  it('refuses bad flags with a message that says what to fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-bad-'));
    const cases: [string[], RegExp][] = [
      [['sweep', '--eps', '0,abc'], /`--eps`: "0,abc" is not a comma-separated list of numbers/],
      [['sweep', '--lambda', '1.5'], /must be in \[0, 1\][\s\S]*at lambda\[0\]/],
      [['sweep', '--agent', 'gpt-9'], /Failed to find agent `gpt-9`/],
      [['sweep', '--scenario', 'nothing-like-this'], /matches none/],
      [['sweep', '--profile', 'meteor'], /Valid fault profile ids: mixed/],
      [['sweep', '--frobnicate'], /Unknown option '--frobnicate'/],
      [['launch'], /no such command/],
    ];
    for (const [args, message] of cases) {
      const r = await shakedown(...args, '--out', join(dir, 'never'));
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(existsSync(join(dir, 'never', 'episodes.jsonl'))).toBe(false);
  });

  it('refuses to overwrite a run directory that holds episodes', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'shakedown-twice-')), 'run');
    const args = ['sweep', '--out', out, '--quiet', '--agent', 'oracle', '--eps', '0', '--lambda', '0', '--trials', '1', '--scenario', 'read-order-status'];
    expect((await shakedown(...args)).code).toBe(0);
    const again = await shakedown(...args);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already holds episodes\.jsonl/);
  });
});

describe('shakedown validate, list and replay', () => {
  it('validate passes on every retail scenario', async () => {
    const r = await shakedown('validate');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/(\d+) of \1 scenarios of world retail hold/);
  });

  it('list prints one id per line with a description', async () => {
    for (const what of ['scenarios', 'agents', 'perturbations', 'faults', 'profiles', 'strategies', 'worlds']) {
      const r = await shakedown('list', what);
      expect(r.code).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(l).toMatch(/^\S+ {2,}\S/);
    }
    expect((await shakedown('list', 'faults')).stdout).toMatch(/^rate-limit +\(transient, reads and writes\)/m);
    expect((await shakedown('list', 'perturbations')).stdout).toMatch(/^spread +\(ε > 0.6\)/m);
    expect((await shakedown('list', 'bananas')).code).toBe(2);
  });

  it('replay reruns one episode with its conversation, faults and verdict', async () => {
    const args = ['replay', '--seed', '42', '--scenario', 'return-to-gift-card', '--agent', 'reference:none', '--eps', '0.5', '--lambda', '0.3', '--trial', '1'];
    const r = await shakedown(...args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^user > /m);
    expect(r.stdout).toMatch(/^agent> /m);
    expect(r.stdout).toMatch(/tool calls:/);
    expect(r.stdout).toMatch(/outcome: (PASS|FAIL|ERROR)/);
    const json = await shakedown(...args, '--json');
    const again = await shakedown(...args, '--json');
    const strip = (s: string) => ({ ...JSON.parse(s), wallMs: 0 });
    expect(strip(json.stdout)).toEqual(strip(again.stdout));
    expect((await shakedown('replay', '--scenario', 'x')).stderr).toMatch(/missing `--agent`/);
  });

  it('perturb prints samples beside the original with operators and entities, as the trials of a sweep see them', async () => {
    const r = await shakedown('perturb', '--scenario', 'return-two-items', '--eps', '0.4', '--samples', '3', '--seed', '42');
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^#\d {2}original : /gm)).toHaveLength(3);
    expect(r.stdout).toMatch(/^ {4}perturbed: /m);
    expect(r.stdout).toMatch(/^ {4}operators: /m);
    expect(r.stdout).toMatch(/entities : .*order="#W9000404"/);
    const replayed = await shakedown('replay', '--json', '--seed', '42', '--scenario', 'return-two-items', '--agent', 'noop', '--eps', '0.4', '--lambda', '0', '--trial', '2');
    const first = JSON.parse(replayed.stdout).messages[0].text as string;
    expect(r.stdout).toContain(`#2  original`);
    expect(r.stdout.split('#2  ')[1]).toContain(`perturbed: ${first}`);
    expect((await shakedown('perturb', '--scenario', 'return-two-items')).stderr).toMatch(/one `--eps E`/);
    expect((await shakedown('perturb', '--scenario', 'nope', '--eps', '1')).stderr).toMatch(/no scenario `nope`/);
    expect((await shakedown('perturb', '--scenario', 'return-two-items', '--eps', '1', '--perturbations', 'typos,wat')).stderr).toMatch(/Valid perturbation family ids: spread/);
  });

  it('ladder measures the mean distance per ε and exits 0 when it rises at every step', async () => {
    const r = await shakedown('ladder', '--levels', '0,0.5,1', '--samples', '2', '--scenario', 'category:cancel');
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^\| [\d.]+ \|/.test(l));
    expect(rows).toHaveLength(3);
    const distances = rows.map((l) => Number(l.split('|')[2]));
    expect(distances[0]).toBe(0);
    expect(distances[1]).toBeGreaterThan(0);
    expect(distances[2]).toBeGreaterThan(distances[1] ?? 1);
    expect((await shakedown('ladder', '--samples', '0')).stderr).toMatch(/`--samples`/);
  });

  it('faults prints the schedule a seed plans for one episode, the same every time', async () => {
    const args = ['faults', '--scenario', 'return-two-items', '--lambda', '0.3', '--trial', '2', '--seed', '42'];
    const r = await shakedown(...args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^per call \(transient\):/m);
    expect(r.stdout).toMatch(/^ {2}\w+ +call \d+ {2}(timeout|rate-limit|server-error|connection-reset|truncated-body|latency-spike)/m);
    expect((await shakedown(...args)).stdout).toBe(r.stdout);
    const json = JSON.parse((await shakedown(...args, '--json')).stdout);
    expect(json.faults.length).toBeGreaterThan(0);
    const writes = JSON.parse((await shakedown('faults', '--scenario', 'return-two-items', '--lambda', '1', '--profile', 'timeout-after-commit', '--json')).stdout);
    expect(writes.faults.every((f: { tool: string; phase?: string }) => /cancel|change|return|exchange|gift_card_funds/.test(f.tool) && f.phase === 'after')).toBe(true);
    expect((await shakedown('faults', '--scenario', 'return-two-items')).stderr).toMatch(/one `--lambda L`/);
    expect((await shakedown('faults', '--scenario', 'return-two-items', '--lambda', '0.3', '--fault-tools', 'teleport')).stderr).toMatch(/no such tool. Tools: find_user_by_email/);
  });

  it('serve-tools serves one episode over loopback HTTP and reports what happened when stopped', async () => {
    const child = spawn(process.execPath, [bin, 'serve-tools', '--scenario', 'return-one-of-two', '--lambda', '0'], { env: { ...process.env, CI: '1' } });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const base = await new Promise<string>((resolve, reject) => {
      child.on('exit', () => reject(new Error(`serve-tools exited early: ${stdout}`)));
      child.stdout.on('data', () => {
        const m = /base URL: (\S+)/.exec(stdout);
        if (m?.[1]) resolve(m[1]);
      });
    });
    const order = await fetch(`${base}/orders/%23W9000403`);
    expect(order.status).toBe(200);
    expect(await order.json()).toMatchObject({ orderId: '#W9000403' });
    const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await done).toBe(0);
    expect(stdout).toMatch(/1 tool call\(s\); faults fired: none/);
    expect(stdout).toMatch(/database differs from the gold state/);
  });

  it('sweeps a module agent and a Python service agent side by side; both meet the same faults', async () => {
    const python = spawnSync('python3', ['--version']);
    if (python.status !== 0) {
      console.warn('skipping the Python agent: python3 is not installed');
      return;
    }
    const agent = spawn('python3', [fileURLToPath(new URL('../../examples/http-agent/agent.py', import.meta.url)), '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        agent.on('exit', () => reject(new Error(`agent.py exited: ${out}`)));
        agent.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /listening on (\S+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
      });
      const out = join(mkdtempSync(join(tmpdir(), 'shakedown-http-')), 'run');
      const r = await shakedown('sweep', '--out', out, '--agent', url, '--agent', './examples/status-bot.ts', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0,0.3', '--trials', '2');
      expect(r.code).toBe(0);
      const lines = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      const of = (agentId: string) => lines.filter((l) => l.key.agent === agentId).sort((a, b) => a.key.lambda - b.key.lambda || a.key.trial - b.key.trial);
      // The service names itself at GET /agent: tables and records show that name, not its URL.
      const py = 'status-bot-py';
      expect(of(py).filter((l) => l.key.lambda === 0).every((l) => l.outcome === 'pass')).toBe(true);
      // The Python agent calls the tools over loopback HTTP and meets exactly the faults the module agent meets in-process.
      expect(of(py).map((l) => [l.outcome, l.faults.map((f: { kind: string }) => f.kind)])).toEqual(of('status-bot').map((l) => [l.outcome, l.faults.map((f: { kind: string }) => f.kind)]));
      expect(of(py).some((l) => l.trace.length > 0)).toBe(true);
      expect(r.stdout).toMatch(/^status-bot-py  /m);
      // The gate takes an agent as the sweep was given it: the module path names status-bot.
      const byPath = await shakedown('gate', out, '--rule', 'pass^1 >= 0', '--agent', './examples/status-bot.ts');
      expect(byPath.stdout).toMatch(/^PASS status-bot: /m);
    } finally {
      agent.kill();
    }
  });

  it('sweeps an LLM agent against a local OpenAI-compatible server; its key appears in no run file or log', async () => {
    const { startLlmStub } = await import('../llm-stub.js');
    const stub = await startLlmStub();
    const secret = 'sk-e2e-0b9d2c7e-must-not-leak';
    try {
      const out = join(mkdtempSync(join(tmpdir(), 'shakedown-llm-')), 'run');
      const args = ['sweep', '--out', out, '--agent', 'llm:stub-model', '--llm-base-url', stub.baseUrl, '--llm-api-key-env', 'SHAKEDOWN_E2E_KEY', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0,0.3', '--trials', '2'];
      const r = await new Promise<{ code: number | null; text: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, CI: '1', SHAKEDOWN_E2E_KEY: secret } });
        let text = '';
        child.stdout.on('data', (c: Buffer) => (text += c.toString()));
        child.stderr.on('data', (c: Buffer) => (text += c.toString()));
        child.on('exit', (code) => resolve({ code, text }));
      });
      expect(r.code).toBe(0);
      const lines = readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.key.lambda === 0).every((l) => l.outcome === 'pass' && l.usage.calls > 0)).toBe(true);
      for (const file of ['run.json', 'episodes.jsonl', 'grid.json']) expect(readFileSync(join(out, file), 'utf8')).not.toContain(secret);
      expect(r.text).not.toContain(secret);
      expect(stub.requests.every((q) => q.authorization === `Bearer ${secret}`)).toBe(true);
      // Beside an agent that replaces globalThis.fetch, in one process: the LLM agent neither breaks nor leaks.
      const shared = join(mkdtempSync(join(tmpdir(), 'shakedown-thief-')), 'run');
      const thief = fileURLToPath(new URL('../fixtures/agents/replaces-fetch.mjs', import.meta.url));
      const beside = await new Promise<{ code: number | null; text: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, ...args.map((a) => (a === out ? shared : a)), '--agent', thief, '--workers', '1', '--quiet'], { env: { ...process.env, CI: '1', SHAKEDOWN_E2E_KEY: secret } });
        let text = '';
        child.stdout.on('data', (c: Buffer) => (text += c.toString()));
        child.stderr.on('data', (c: Buffer) => (text += c.toString()));
        child.on('exit', (code) => resolve({ code, text }));
      });
      expect(beside.code, beside.text).toBe(0);
      const sharedLines = readFileSync(join(shared, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      const llmOutcomes = (ls: { key: { agent: string; lambda: number; trial: number }; outcome: string }[]) => ls.filter((l) => l.key.agent === 'llm:stub-model').map((l) => `${l.key.lambda}|${l.key.trial}|${l.outcome}`).sort();
      expect(llmOutcomes(sharedLines)).toEqual(llmOutcomes(lines));
      expect(sharedLines.some((l) => l.key.agent === 'replaces-fetch')).toBe(true);
      for (const file of ['episodes.jsonl', 'grid.json']) expect(readFileSync(join(shared, file), 'utf8')).not.toContain(secret);
      // Prices make a cost per episode and per cell; a cost cap stops the sweep cleanly and it resumes.
      const capped = join(mkdtempSync(join(tmpdir(), 'shakedown-cost-')), 'run');
      const cfg = join(capped + '.json');
      writeFileSync(cfg, JSON.stringify({ prices: { 'stub-model': { input: 1000, output: 1000 } }, maxCostUsd: 2 }));
      const costArgs = ['sweep', '--config', cfg, '--out', capped, '--agent', 'llm:stub-model', '--llm-base-url', stub.baseUrl, '--llm-api-key-env', 'SHAKEDOWN_E2E_KEY', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0,0.3', '--trials', '2', '--concurrency', '1', '--quiet'];
      const stopped = await new Promise<{ code: number | null; text: string }>((resolve) => {
        const child = spawn(process.execPath, [bin, ...costArgs], { env: { ...process.env, CI: '1', SHAKEDOWN_E2E_KEY: secret } });
        let text = '';
        child.stderr.on('data', (c: Buffer) => (text += c.toString()));
        child.on('exit', (code) => resolve({ code, text }));
      });
      expect(stopped.code).toBe(0);
      expect(stopped.text).toMatch(/stopped at a budget: the LLM spend reached \$[\d.]+ \(cap \$2\)/);
      const costed = readFileSync(join(capped, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      expect(costed.length).toBeLessThan(4);
      expect(costed.every((l) => l.costUsd > 0)).toBe(true);
      expect(JSON.parse(readFileSync(join(capped, 'grid.json'), 'utf8')).agents[0].cells[0].usage.costUsd).toBeGreaterThan(0);
      const missing = await shakedown('sweep', '--out', `${out}-2`, '--agent', 'llm:stub-model', '--llm-api-key-env', 'SHAKEDOWN_E2E_UNSET_KEY', '--scenario', 'read-order-status');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/`SHAKEDOWN_E2E_UNSET_KEY` is empty. Set it to your API key/);
    } finally {
      await stub.close();
    }
  });

  it('stops at --max-episodes, cleanly and resumably', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'shakedown-budget-')), 'run');
    const args = ['sweep', '--out', dir, '--agent', 'reference:none', '--scenario', 'category:read', '--eps', '0', '--lambda', '0', '--trials', '2', '--concurrency', '1'];
    const first = await shakedown(...args, '--max-episodes', '3');
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/stopped at a budget: 3 episodes ran/);
    expect(readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
    const rest = await shakedown(...args, '--resume');
    expect(rest.code).toBe(0);
    expect(readFileSync(join(dir, 'episodes.jsonl'), 'utf8').trim().split('\n')).toHaveLength(8);
  });

  it('ablates one fault kind at a time and runs adaptive trials that extend only mixed tasks', async () => {
    const base = mkdtempSync(join(tmpdir(), 'shakedown-ablate-'));
    const r = await shakedown('sweep', '--ablate', 'faults', '--out', join(base, 'abl'), '--agent', 'reference:none', '--scenario', 'category:read', '--eps', '0', '--lambda', '0.5', '--trials', '1');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\| timeout \| [\d.]+ \/ [\d.]+ \|$/m);
    expect(r.stdout).toMatch(/^\| latency-spike \| 1\.000 \/ 1\.000 \|$/m);
    const ablation = JSON.parse(readFileSync(join(base, 'abl', 'ablation.json'), 'utf8'));
    expect(ablation.rows.map((x: { id: string }) => x.id)).toEqual(['timeout', 'rate-limit', 'server-error', 'connection-reset', 'latency-spike', 'truncated-body', 'schema-drift', 'empty-result', 'silent-write', 'stale-read', 'wrong-value', 'partial-commit']);
    expect((await shakedown('sweep', '--ablate', 'agents')).stderr).toMatch(/ablate `faults`/);

    const ad = join(base, 'adaptive');
    const a = await shakedown('sweep', '--out', ad, '--adaptive', '2', '--trials', '4', '--agent', 'reference:none', '--scenario', 'category:read', '--eps', '0', '--lambda', '0.5');
    expect(a.code).toBe(0);
    const lines = readFileSync(join(ad, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const byTask = new Map<string, { n: number; firstRound: boolean[] }>();
    for (const l of lines) {
      const t = byTask.get(l.key.scenario) ?? { n: 0, firstRound: [] };
      t.n++;
      if (l.key.trial < 2) t.firstRound.push(l.outcome === 'pass');
      byTask.set(l.key.scenario, t);
    }
    for (const t of byTask.values()) expect(t.n).toBe(t.firstRound[0] === t.firstRound[1] ? 2 : 4);
    const grid = JSON.parse(readFileSync(join(ad, 'grid.json'), 'utf8'));
    expect(grid.adaptiveFirstTrials).toBe(2);
    expect(grid.agents[0].cells[0].passHatK).toHaveLength(2);
    expect((await shakedown('sweep', '--out', join(base, 'never'), '--adaptive', '4', '--trials', '4')).stderr).toMatch(/first round needs 2 to 3 trials[\s\S]*at adaptiveFirstTrials/);
    expect(existsSync(join(base, 'never'))).toBe(false);
  });

  it('reads shakedown.config.json or .ts from the working directory (or --config), flags on top; init writes a starter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-config-'));
    const inDir = (...args: string[]) => shakedownIn(dir, ...args);
    writeFileSync(join(dir, 'shakedown.config.json'), JSON.stringify({ agents: ['reference:none'], scenarios: ['category:read'], eps: [0], lambda: [0], trials: 3 }));
    const r = await inDir('sweep', '--out', 'a', '--trials', '2', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'a', 'run.json'), 'utf8'));
    expect(manifest.config).toMatchObject({ agents: ['reference:none'], eps: [0], trials: 2 });
    writeFileSync(join(dir, 'other.config.ts'), "const trials: number = 1;\nexport default { agents: ['noop'], scenarios: ['category:read'], eps: [0], lambda: [0], trials, profile: 'network' };\n");
    const t = await inDir('sweep', '--config', 'other.config.ts', '--out', 'b', '--quiet');
    expect(t.code, t.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'b', 'run.json'), 'utf8')).config).toMatchObject({ agents: ['noop'], trials: 1, profile: 'network' });
    writeFileSync(join(dir, 'bad.config.json'), JSON.stringify({ trials: 'many', colour: 'red' }));
    const bad = await inDir('sweep', '--config', 'bad.config.json');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/from bad.config.json and the flags:[\s\S]*colour[\s\S]*trials[\s\S]*Fix the keys named above in bad.config.json/);
    const init = await inDir('init');
    expect(init.stdout).toMatch(/wrote shakedown.config.ts/);
    expect(readFileSync(join(dir, 'shakedown.config.ts'), 'utf8')).toMatch(/export default defineConfig\(\{/);
    expect((await inDir('init')).stderr).toMatch(/it exists/);
  });
});
