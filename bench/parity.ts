/**
 * The delivery-path parity table of docs/faults.md ("Time"): pass^1 of the order desk per delivery path
 * and fault profile, on the parity test's tasks, λ and trials (test/parity-kit.ts).
 *
 *   npx tsx bench/parity.ts     (about three minutes; the real-time rows wait in real time)
 */
import { fileURLToPath } from 'node:url';
import { commandAgent, probeCommand } from '../src/agents/command-agent.js';
import type { AgentFactory } from '../src/agents/contract.js';
import { anthropicAgent } from '../src/agents/anthropic.js';
import { interceptGlobally } from '../src/agents/intercept.js';
import { llmAgent } from '../src/agents/llm.js';
import { loadAgent } from '../src/agents/loader.js';
import { startToolServer } from '../src/agents/tool-server.js';
import { anthropicSettingsSchema, llmSettingsSchema } from '../src/ground/config.js';
import type { EpisodeRecord } from '../src/ground/record.js';
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
{
  const stub = await startLlmStub({ script: 'desk' });
  const anthropic = await startAnthropicStub();
  process.env.SHAKEDOWN_PARITY_KEY = 'sk-parity';
  add('LLM agent, tools over MCP', await sweep(llmAgent(llmSettingsSchema.parse({ baseUrl: stub.baseUrl, model: 'desk', apiKeyEnv: 'SHAKEDOWN_PARITY_KEY', maxSteps: 100, retries: 0, tools: 'mcp' })), simulated));
  add('Anthropic agent, tools over MCP', await sweep(anthropicAgent(anthropicSettingsSchema.parse({ baseUrl: anthropic.baseUrl, model: 'desk', apiKeyEnv: 'SHAKEDOWN_PARITY_KEY', maxSteps: 100, retries: 0, tools: 'mcp' })), simulated));
  await anthropic.close();
  await stub.close();
}
add('MCP, in process', await sweep(deskMcp, simulated));
{
  const server = await startToolServer();
  add('MCP, Streamable HTTP', await sweep(deskOverMcpHttp((id) => server.grant(harness.runtime.access(id)).mcpUrl), simulated));
  await server.close();
}
/** A command agent from an example script, with its arguments. */
const command = async (script: string, args = ''): Promise<AgentFactory> => {
  const c = `"${process.execPath}" "${fileURLToPath(new URL(`../examples/${script}`, import.meta.url))}" ${args}`;
  return commandAgent(c, process.cwd(), await probeCommand(c));
};
for (const transport of ['stdio', 'http']) {
  const agent = await command('mcp-agent/agent.mjs', `--transport ${transport}`);
  add(`command, MCP over ${transport === 'http' ? 'Streamable HTTP' : 'stdio'}`, await sweep(agent, simulated, PROFILES, 6));
  await agent.dispose?.();
}
{
  const stub = await startLlmStub({ script: 'desk' });
  process.env.OPENAI_BASE_URL = stub.baseUrl;
  process.env.OPENAI_API_KEY = 'sk-agents-sdk';
  const agent = await command('openai-agents/agent.mjs');
  const profiles = ['rate-limit', 'network', 'timeout-after-commit', 'truncated'];
  add('OpenAI Agents SDK (command, stub model)', await sweep(agent, simulated, profiles, 4), profiles);
  await agent.dispose?.();
  await stub.close();
}
{
  const { child, url } = await startService('real');
  const agent = await loadAgent(url);
  add('HTTP service, real sleeps, `real` time', await sweep(agent, { mode: 'auto' }, ['rate-limit', 'timeouts', 'timeout-after-commit']), ['rate-limit', 'timeouts', 'timeout-after-commit']);
  add('HTTP service, real sleeps, `simulated` time', await sweep(agent, simulated, ['rate-limit']), ['rate-limit']);
  await agent.dispose?.();
  child.kill();
}

// One row per path, one column per profile.
const paths = [...new Set([...table.values()].flatMap((m) => [...m.keys()]))];
const profiles = [...table.keys()];
console.log(`| path | ${profiles.join(' | ')} |`);
console.log(`| --- | ${profiles.map(() => '---').join(' | ')} |`);
for (const path of paths) console.log(`| ${path} | ${profiles.map((p) => (table.get(p)?.has(path) ? (table.get(p)?.get(path) as number).toFixed(3) : '')).join(' | ')} |`);
process.exit(0);
