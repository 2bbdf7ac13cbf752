import { callTool } from '../ground/tools.js';
import type { Scenario } from '../ground/scenario.js';
import type { WorldDefinition } from '../ground/world.js';
import { squash } from '../ground/canonical.js';
import type { AgentContext, AgentFactory } from './contract.js';

/** Replies politely and never acts: every scenario must fail for it (DESIGN decision 9). */
export const noopAgent: AgentFactory = {
  id: 'noop',
  description: 'baseline: replies without calling any tool; must fail every scenario',
  create: () => ({
    reply: async () => "Thank you for reaching out. I'm not able to help with that right now.",
  }),
};

/** An argument value as a confirmation names it: amounts and ids as they are, lists joined. */
const shown = (v: unknown): string => (Array.isArray(v) ? v.map(shown).join(' and ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/**
 * Follows the gold path as a careful agent would, and so frames what the rules and the faults alone
 * cost: it identifies the user with the details they give (asking for them when they have not), reads
 * what the outputs depend on, names every gold write with its arguments and asks for a yes, makes the
 * writes, reads again, and states the required outputs. It says truthfully when a write may not have
 * gone through. At ε = λ = 0 it must pass every scenario.
 */
export const oracleAgent: AgentFactory = {
  id: 'oracle',
  description: 'baseline: follows the gold actions (identifies the user, asks before writing) and states the required outputs; must pass at ε = λ = 0',
  needsGold: true,
  create: (ctx) => {
    const specs = new Map(ctx.toolSpecs.map((t) => [t.name, t]));
    const gold = ctx.gold ?? { actions: [], outputs: [] };
    const lookups = gold.identify ?? [];
    const tried = new Set<number>();
    let heard = '';
    let identified = lookups.length === 0;
    let phase: 'identify' | 'propose' | 'confirm' | 'over' = 'identify';
    const call = async (tool: string, args: Record<string, unknown>) => {
      const spec = specs.get(tool);
      if (!spec) throw new Error(`oracle: the world has no tool ${tool}`);
      return callTool(ctx.fetch, ctx.baseUrl, spec, args, { signal: ctx.signal });
    };
    const outputs = (): string => (gold.outputs.length > 0 ? ` For your request: ${gold.outputs.join('; ')}.` : '');
    const read = async () => {
      for (const r of gold.reads ?? []) await call(r.tool, r.args);
    };
    const proposal = (): string => {
      const what = gold.actions.map((a) => `${a.tool.replace(/_/g, ' ')} with ${Object.entries(a.args).map(([k, v]) => `${k} ${shown(v)}`).join(', ')}`).join('; then ');
      return `To confirm, I'll do the following: ${what}. Shall I proceed?`;
    };
    const act = async (): Promise<string> => {
      const failures: string[] = [];
      const unsure: string[] = [];
      for (const action of gold.actions) {
        const r = await call(action.tool, action.args);
        const readable = r.body === undefined || typeof r.body === 'object';
        if (r.status === 0 || r.status >= 500 || (r.ok && !readable)) unsure.push(action.tool.replace(/_/g, ' '));
        else if (!r.ok) failures.push(`${action.tool.replace(/_/g, ' ')} failed (${r.status})`);
      }
      await read();
      if (unsure.length > 0) return `I couldn't confirm whether ${unsure.join(' and ')} went through.${failures.length > 0 ? ` ${failures.join(', ')}.` : ''}${outputs()}`;
      if (failures.length > 0) return `I could not finish: ${failures.join(', ')}.${outputs()}`;
      return `All done: the changes are registered.${outputs()}`;
    };
    return {
      async reply(message: string) {
        heard += `\n${message}`;
        if (phase === 'over') return 'That is taken care of as well.';
        if (!identified) {
          const given = squash(heard);
          for (const [i, l] of lookups.entries()) {
            if (tried.has(i) || !Object.values(l.args).every((v) => given.includes(squash(String(v))))) continue;
            tried.add(i);
            const r = await call(l.tool, l.args);
            // An answer cut short names nobody: the user is not identified by it.
            if (r.ok && typeof r.body === 'object' && r.body !== null) {
              identified = true;
              break;
            }
          }
          if (!identified) return `${tried.size > 0 ? "I couldn't find an account with those details. " : ''}Could you give me the details that verify your identity?`;
        }
        if (phase === 'identify' || phase === 'propose') {
          await read();
          if (gold.actions.length === 0) {
            phase = 'over';
            return `Here is what I found.${outputs()}`;
          }
          phase = 'confirm';
          return `${outputs().trim()} ${proposal()}`.trim();
        }
        // phase === 'confirm': a yes makes the writes; anything else leaves everything as it is.
        phase = 'over';
        if (/^\s*(?:no\b|nope\b)/i.test(message)) return "All right, I won't make any change.";
        return act();
      },
    };
  },
};

/** What the `oracle` is given: the gold actions, outputs and reads, and the lookups that identify the user from the profile, the preferred one first. */
export function goldContext(world: WorldDefinition, scenario: Scenario): NonNullable<AgentContext['gold']> {
  const lookups = world.judging?.conduct?.lookups ?? {};
  const kinds = [scenario.user.identity, ...Object.keys(lookups).filter((k) => k !== scenario.user.identity)];
  const identify = kinds.flatMap((k) => {
    const make = lookups[k];
    if (!make) return [];
    const call = make(scenario.user.profile);
    return Object.values(call.args).every((v) => v !== undefined && v !== '') ? [{ tool: call.tool, args: { ...call.args } }] : [];
  });
  return { actions: scenario.gold, outputs: scenario.outputs, reads: scenario.reads, identify };
}

/** Ids of the baselines that frame every report; reports and the gate leave them out of comparisons. */
export const BASELINE_IDS: readonly string[] = [oracleAgent.id, noopAgent.id];
