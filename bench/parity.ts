/**
 * The delivery-path parity table of docs/faults.md ("Time"): pass^1 of the order desk per delivery path
 * and fault profile, on the parity test's tasks, λ and trials (test/parity-kit.ts).
 *
 *   npx tsx bench/parity.ts     (about a minute; the real-time columns wait in real time)
 */
import { anthropicAgent } from '../src/agents/anthropic.js';
import { interceptGlobally } from '../src/agents/intercept.js';
import { llmAgent } from '../src/agents/llm.js';
import { loadAgent } from '../src/agents/loader.js';
import { startToolServer } from '../src/agents/tool-server.js';
import { anthropicSettingsSchema, llmSettingsSchema } from '../src/core/config.js';
import type { EpisodeRecord } from '../src/core/episode.js';
import deskMcp from '../examples/desk-mcp.js';
import { startAnthropicStub } from '../test/anthropic-stub.js';
import { startLlmStub } from '../test/llm-stub.js';
import { deskModule, deskOverMcpHttp, harness, PROFILES, passRate, startService, sweep } from '../test/parity-kit.js';

const table = new Map<string, Map<string, number>>();
const add = (path: string, runs: Map<string, EpisodeRecord>, profiles = PROFILES) => {
  for (const p of profiles) (table.get(p) ?? table.set(p, new Map()).get(p))?.set(path, passRate(runs, p));
};
const simulated = { mode: 'simulated' } as const;

add('module', await sweep(deskModule(false), simulated));
{
  const { child, url } = await startService('clock');
  const agent = await loadAgent(url);
  add('HTTP service, clock endpoint', await sweep(agent, simulated));
  await agent.dispose?.();
  child.kill();
}
{
  const interception = interceptGlobally([harness.runtime]);
  add('global interception', await sweep(deskModule(true), simulated));
  interception.close();
}
{
  const stub = await startLlmStub({ script: 'desk' });
  process.env.SHAKEDOWN_PARITY_KEY = 'sk-parity';
  add('LLM agent (stub model)', await sweep(llmAgent(llmSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'desk', apiKeyEnv: 'SHAKEDOWN_PARITY_KEY', maxSteps: 100, retries: 0 })), simulated));
  await stub.close();
}
{
  const stub = await startAnthropicStub();
  process.env.SHAKEDOWN_PARITY_ANTHROPIC_KEY = 'sk-ant-parity';
  add('Anthropic agent (stub model)', await sweep(anthropicAgent(anthropicSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'desk', apiKeyEnv: 'SHAKEDOWN_PARITY_ANTHROPIC_KEY', maxSteps: 100, retries: 0 })), simulated));
  await stub.close();
}
add('MCP, in process', await sweep(deskMcp, simulated));
{
  const server = await startToolServer(harness.runtime);
  add('MCP, Streamable HTTP', await sweep(deskOverMcpHttp((id) => server.mcpUrlFor(id)), simulated));
  await server.close();
}
{
  const { child, url } = await startService('real');
  const agent = await loadAgent(url);
  add('HTTP service, real sleeps, `real` time', await sweep(agent, { mode: 'auto' }, ['rate-limit', 'timeouts', 'timeout-after-commit']), ['rate-limit', 'timeouts', 'timeout-after-commit']);
  add('HTTP service, real sleeps, `simulated` time', await sweep(agent, simulated, ['rate-limit']), ['rate-limit']);
  await agent.dispose?.();
  child.kill();
}

const paths = [...new Set([...table.values()].flatMap((m) => [...m.keys()]))];
console.log(`| profile | ${paths.join(' | ')} |`);
console.log(`| --- | ${paths.map(() => '---').join(' | ')} |`);
for (const [profile, row] of table) console.log(`| ${profile} | ${paths.map((p) => (row.has(p) ? (row.get(p) as number).toFixed(3) : '')).join(' | ')} |`);
process.exit(0);
