import type { AgentFactory } from './contract.js';
import { noopAgent, oracleAgent } from './baselines.js';
import { RetailReferenceAgent } from './reference/retail.js';
import { TravelReferenceAgent } from './reference/travel.js';
import { compositions, parseStrategies, strategies, strategyName } from './strategies.js';
import { ShakedownError } from '../ground/errors.js';
import { strictUnderstanding, tolerantUnderstanding, type Understanding, type UnderstandingMode } from './reference/understanding.js';
import { retailLanguage } from '../../scenarios/retail/language.js';
import { travelLanguage } from '../../scenarios/travel/language.js';
import { VOICES, type Voice } from './reference/voice.js';

/** A built-in agent family, selectable as `id` or `id:options`. */
export interface AgentEntry {
  readonly id: string;
  readonly description: string;
  /** Builds the factory for an option string (e.g. `retry+none` for `reference:retry+none`). */
  build(options: string | undefined): AgentFactory;
}

/** The scripted reference agent of each built-in world, on the same conversation loop and strategy layer. */
// Each world's user language, not its whole module: listing or building agents loads no tool handlers.
const REFERENCE_AGENTS = {
  retail: { Agent: RetailReferenceAgent, idMark: '#', language: retailLanguage },
  travel: { Agent: TravelReferenceAgent, idMark: '', language: travelLanguage },
} as const;
const referenceWorlds = Object.keys(REFERENCE_AGENTS);

/** One reader per world and mode: building one reads the world's lexicon, and an episode only uses it. */
const understandings = new Map<string, Understanding>();
function understandingFor(world: keyof typeof REFERENCE_AGENTS, mode: UnderstandingMode): Understanding {
  const key = `${world}|${mode}`;
  let u = understandings.get(key);
  if (!u) {
    u = mode === 'strict' ? strictUnderstanding(REFERENCE_AGENTS[world].idMark) : tolerantUnderstanding(REFERENCE_AGENTS[world].language.perturbation?.lexicon ?? {});
    understandings.set(key, u);
  }
  return u;
}

/** The scripted reference agent in one understanding mode; its options are strategies (`retry+none`). */
const referenceEntry = (name: string, mode: UnderstandingMode): AgentEntry => ({
  id: name,
  description: `scripted reference agent of the built-in worlds (${referenceWorlds.join(', ')}) reading the user ${mode === 'strict' ? 'strictly (exact keywords and formats)' : 'tolerantly (normalisation, typos, synonyms)'}, with fallback strategies and a voice after "@" (${VOICES.join(', ')}), e.g. ${name}:retry or ${name}:retry@chatty (strategies: ${strategies.map((s) => s.id).join(', ')}; compositions: ${Object.keys(compositions).join(', ')})`,
  build(options) {
    // `reference:retry@chatty`: strategies, then the voice after `@`.
    const [strategyPart = 'none', voicePart] = (options ?? 'none').split('@');
    const voice = (voicePart ?? 'terse').trim() as Voice;
    if (!VOICES.includes(voice)) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to select agent \`${name}:${options ?? ''}\`: no voice \`${voice}\`. Voices: ${VOICES.join(', ')} (e.g. ${name}:none@chatty).`);
    const list = parseStrategies(strategyPart || 'none');
    // A named composition keeps its name (`reference:robust`); otherwise the strategies in layer order.
    const spec = (strategyPart || 'none').trim();
    const id = `${name}:${/^[a-z-]+$/.test(spec) && compositions[spec] ? spec : strategyName(list)}${voice === 'terse' ? '' : `@${voice}`}`;
    return {
      id,
      description: `reference agent (${mode} understanding) with strategies ${list.map((s) => s.id).join(' + ')}`,
      worlds: referenceWorlds,
      create: (ctx) => {
        const world = ctx.world as keyof typeof REFERENCE_AGENTS;
        const entry = REFERENCE_AGENTS[world] as (typeof REFERENCE_AGENTS)[keyof typeof REFERENCE_AGENTS] | undefined;
        if (!entry) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to create ${id}: the reference agent knows the worlds ${referenceWorlds.join(', ')} only, not \`${ctx.world}\`.`);
        const agent = new entry.Agent(ctx, list, understandingFor(world, mode));
        agent.voice = voice;
        return agent;
      },
    };
  },
});

const fixed = (factory: AgentFactory): AgentEntry => ({
  id: factory.id,
  description: factory.description,
  build(options) {
    if (options) throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to select agent \`${factory.id}:${options}\`: \`${factory.id}\` takes no options. Write \`${factory.id}\`.`);
    return factory;
  },
});

/** Every built-in agent. */
export const agentEntries: readonly AgentEntry[] = [fixed(noopAgent), fixed(oracleAgent), referenceEntry('reference', 'tolerant'), referenceEntry('reference-strict', 'strict')];

/** Resolves an agent spec such as `oracle` or `reference:retry`. */
export function resolveAgent(spec: string): AgentFactory {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  const id = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const options = colon < 0 ? undefined : trimmed.slice(colon + 1);
  const entry = agentEntries.find((e) => e.id === id);
  if (!entry) {
    throw new ShakedownError('SHAKEDOWN_AGENT', `Failed to find agent \`${spec}\`: no such agent. Built-in agents: ${agentEntries.map((e) => e.id).join(', ')} (e.g. reference:retry); or a module path (./my-agent.ts), a service URL (http://...), a command (cmd:node ./agent.mjs), llm:MODEL or anthropic:MODEL.`);
  }
  return entry.build(options);
}
