/** What a newcomer meets first: the verdict at the end of a sweep, one command's help, config files said and read. */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { shakedown, shakedownIn } from '../cli-run.js';

const SMALL = ['--agent', 'oracle,reference:none,reference:robust', '--scenario', 'category:cancel', '--eps', '0,1', '--lambda', '0,0.3', '--trials', '2', '--quiet'];

describe('a newcomer', () => {
  it('reads a verdict per agent under test and the report path as the sweep\'s last lines, with the gate rules of the config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-verdict-'));
    writeFileSync(join(dir, 'shakedown.config.yaml'), "gate:\n  rules:\n    - 'pass^2 >= 0.5 where lambda <= 0.3'\n");
    const r = await shakedownIn(dir, 'sweep', '--out', join(dir, 'run'), ...SMALL);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^shakedown: using config (.*[\\/])?shakedown\.config\.yaml \(found in this directory/m);
    const tail = r.stdout.trim().split('\n').slice(-4);
    expect(tail[0]).toBe('verdict (pass^2; gate: pass^2 >= 0.5 where lambda <= 0.3):');
    expect(tail[1]).toMatch(/^ {2}reference:none {4}1\.000 at ε 0, λ 0; worst 0\.\d{3} at ε \d, λ 0\.3; volume 0\.\d{3} {2}NO-GO \(pass\^2 = 0\.\d{3} fails >= 0\.5 at ε \d, λ 0\.3/);
    expect(tail[2]).toMatch(/^ {2}reference:robust {2}1\.000 at ε 0, λ 0; .* {2}GO$/);
    expect(tail[3]).toBe(`report: ${join(dir, 'run', 'report', 'report.html')}`);
    // oracle is a baseline: no verdict line of its own.
    expect(tail.join('\n')).not.toMatch(/^ {2}oracle/m);
  }, 120_000);

  it('gets one command\'s options from COMMAND --help, and a config format Shakedown cannot read refused with the list', async () => {
    const gate = await shakedown('gate', '--help');
    expect(gate.code).toBe(0);
    expect(gate.stdout).toMatch(/^Usage: shakedown gate \[options\]/);
    expect(gate.stdout).toMatch(/--allow-partial/);
    expect(gate.stdout).not.toMatch(/Sweep options/);
    const sweep = await shakedown('sweep', '--help');
    expect(sweep.stdout).toMatch(/--config FILE/);
    expect(sweep.stdout).toMatch(/--force/);
    expect(sweep.stdout).toMatch(/--agent-time T/);
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-toml-'));
    writeFileSync(join(dir, 'c.toml'), 'x = 1\n');
    const toml = await shakedown('sweep', '--config', join(dir, 'c.toml'));
    expect(toml.code).toBe(2);
    expect(toml.stderr).toMatch(/Shakedown reads \.ts, \.mts, \.js, \.mjs, \.json, \.yaml, \.yml files/);
  }, 60_000);

  it('a config for one world leaves its scenarios out on another, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-world-'));
    writeFileSync(join(dir, 'shakedown.config.json'), JSON.stringify({ scenarios: ['read-order-status'] }));
    const r = await shakedownIn(dir, 'validate', '--world', 'travel');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/shakedown\.config\.json is for world retail; on travel its `scenarios` are left out/);
    expect(r.stdout).toMatch(/36 of 36 scenarios of world travel hold/);
  }, 60_000);
});

describe('using Shakedown from another repository', () => {
  it("installs from a packed tarball with a strict layout; plain Node, CommonJS and TypeScript import it, and npx shakedown sweeps a module agent and a world written outside", async () => {
    const run = promisify(execFile);
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'shakedown-install-'));
    await run('npm', ['pack', '--pack-destination', dir], { cwd: root });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz')) as string;
    const project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-agent-project', private: true, type: 'module' }));
    writeFileSync(
      join(project, 'agent.ts'),
      [
        "import { callTool, defineAgent, type AgentContext } from 'shakedown';",
        'export default defineAgent({',
        "  id: 'my-bot',",
        "  description: 'looks an order up, then gives up',",
        '  create: (ctx: AgentContext) => ({',
        '    async reply() {',
        "      const spec = ctx.toolSpecs.find((t) => t.name === 'get_order');",
        "      const r = spec ? await callTool(ctx.fetch, ctx.baseUrl, spec, { orderId: '#W9000101' }) : undefined;",
        "      return `I looked (${r?.status ?? 'no tool'}) but cannot help.`;",
        '    },',
        '  }),',
        '});',
        '',
      ].join('\n'),
    );
    // A world of the project's own, importing nothing but 'shakedown' (zod, msw and Faker come from it).
    cpSync(fileURLToPath(new URL('../fixtures/worlds/library/', import.meta.url)), join(project, 'library'), { recursive: true });
    // A strict layout, as pnpm makes: nothing hoisted, a package sees only what it declares. The
    // dependencies come from npm's cache where the checkout's install left them.
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--install-strategy=linked', join(dir, tarball)], { cwd: project });
    expect(existsSync(join(project, 'node_modules', 'zod'))).toBe(false);
    const env = { ...process.env, CI: '1', SHAKEDOWN_CONFIG_DIR: project };
    const node = (code: string, type = 'module') => run(process.execPath, [`--input-type=${type}`, '-e', code], { cwd: project, env });
    expect((await node("const m = await import('shakedown'); console.log(typeof m.defineAgent, typeof m.z.object, typeof m.http.get)")).stdout.trim()).toBe('function function function');
    expect((await node("console.log(typeof require('shakedown').runSweep)", 'commonjs')).stdout.trim()).toBe('function');
    // The declarations: the agent type-checks against the installed package.
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2023', strict: true, noEmit: true, skipLibCheck: true }, files: ['agent.ts'] }));
    await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: project });
    const worlds = await run('npx', ['shakedown', 'list', 'worlds'], { cwd: project, env });
    expect(worlds.stdout).toMatch(/^retail +an online shop/m);
    const { stdout } = await run('npx', ['shakedown', 'sweep', '--agent', './agent.ts', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '1', '--out', 'run', '--quiet'], { cwd: project, env });
    expect(stdout).toMatch(/^ {2}my-bot {2}0\.000 at ε 0, λ 0/m);
    expect(stdout).toMatch(/^report: .*project[\\/]run[\\/]report[\\/]report\.html$/m);
    const own = await run('npx', ['shakedown', 'validate', '--world', './library/index.ts'], { cwd: project, env });
    expect(own.stdout).toMatch(/4 of 4 scenarios of world library hold/);
    const swept = await run('npx', ['shakedown', 'sweep', '--world', './library/index.ts', '--agent', './library/agent.ts', '--eps', '0', '--lambda', '0', '--trials', '1', '--out', 'run-library', '--quiet'], { cwd: project, env });
    expect(swept.stdout).toMatch(/^ {2}library-desk {2}1\.000 at ε 0, λ 0/m);
  }, 240_000);
});
