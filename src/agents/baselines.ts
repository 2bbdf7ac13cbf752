import { callTool } from '../core/tools.js';
import type { AgentFactory } from './contract.js';

/** Replies politely and never acts: every scenario must fail for it (DESIGN decision 9). */
export const noopAgent: AgentFactory = {
  id: 'noop',
  description: 'baseline: replies without calling any tool; must fail every scenario',
  create: () => ({
    reply: async () => "Thank you for reaching out. I'm not able to help with that right now.",
  }),
};

/**
 * Executes the gold actions on the first message and states the required outputs: the ceiling of the
 * benchmark. At ε = λ = 0 it must pass every scenario; under faults it shows what faults alone cost.
 */
export const oracleAgent: AgentFactory = {
  id: 'oracle',
  description: 'baseline: executes the gold actions and states the required outputs; must pass at ε = λ = 0',
  needsGold: true,
  create: (ctx) => {
    let acted = false;
    const specs = new Map(ctx.toolSpecs.map((t) => [t.name, t]));
    return {
      async reply() {
        if (acted) return 'All done.';
        acted = true;
        const failures: string[] = [];
        for (const action of ctx.gold?.actions ?? []) {
          const spec = specs.get(action.tool);
          if (!spec) throw new Error(`oracle: the world has no tool ${action.tool}`);
          const r = await callTool(ctx.fetch, ctx.baseUrl, spec, action.args, { signal: ctx.signal });
          if (!r.ok) failures.push(`${action.tool} failed (${r.status})`);
        }
        const outputs = ctx.gold?.outputs ?? [];
        const told = outputs.length > 0 ? ` ${outputs.join('; ')}.` : '';
        return failures.length > 0 ? `I could not finish: ${failures.join(', ')}.${told}` : `All done.${told}`;
      },
    };
  },
};

/** Ids of the baselines that frame every report; reports and the gate leave them out of comparisons. */
export const BASELINE_IDS: readonly string[] = [oracleAgent.id, noopAgent.id];
