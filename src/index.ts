/**
 * Shakedown's public API. Named exports only: what is not listed here is internal.
 */
export { defineAgent } from './agents/contract.js';
export type { Agent, AgentContext, AgentFactory } from './agents/contract.js';
export { resolveAgent, agentEntries } from './agents/registry.js';
export type { AgentEntry } from './agents/registry.js';
export { strategies, getStrategy, parseStrategies, composeStrategies, isRetryable } from './agents/strategies.js';
export type { Strategy, StrategyContext, ToolCall } from './agents/strategies.js';
export { noopAgent, oracleAgent } from './agents/baselines.js';
export { RetailReferenceAgent } from './agents/reference/retail.js';
export { strictUnderstanding, tolerantUnderstanding } from './agents/reference/understanding.js';
export type { Understanding, UnderstandingMode } from './agents/reference/understanding.js';

export { defineConfig, resolveConfig, sweepConfigSchema } from './core/config.js';
export type { SweepConfig, ResolvedConfig } from './core/config.js';
export { ShakedownError } from './core/errors.js';
export type { ShakedownErrorCode } from './core/errors.js';
export { deriveSeed, makeRng, hash53 } from './core/seeds.js';
export type { Rng, SeedPart } from './core/seeds.js';
export { createClock, REFERENCE_EPOCH_MS } from './core/clock.js';
export type { EpisodeClock } from './core/clock.js';
export { volatile, volatileFields, toolSpecJson } from './core/world.js';
export type { WorldDefinition, WorldInstance, ToolSpec, ToolSpecJson, UserLanguage, SlotLanguage, PerturbationLanguage } from './core/world.js';
export { canonicalize, diffCanonical, outputMatches, parseAmount, normalizeText, stableJson } from './core/canonical.js';
export type { DiffEntry } from './core/canonical.js';
export { callTool } from './core/tools.js';
export type { ToolResult, CallToolOptions } from './core/tools.js';
export { ToolRuntime, TOOL_DOMAIN } from './core/runtime.js';
export type { EpisodeSession, TraceEntry } from './core/runtime.js';
export { FaultInjector, transientSchedule, faultSchedule } from './core/faults.js';
export type { FaultKind, TransientFaultKind, PersistentFaultKind, FaultProfile, FaultTarget, FiredFault, FaultTouch, PlannedFault, StrikeContext, CommitPhase } from './core/faults.js';
export { interceptGlobally } from './agents/intercept.js';
export type { GlobalInterception } from './agents/intercept.js';
export { startToolServer } from './agents/tool-server.js';
export type { ToolServer, ToolServerOptions } from './agents/tool-server.js';
export { perturb, joinSegments, mapUnprotected, resolveFamilies, checkMeaning, recoverable, tokenDistance, familyLevel, partsOf, joinParts, standingText } from './core/perturb.js';
export type { PerturbationFamily, PerturbationContext, PerturbationTouch, ResolvedFamily, Perturbed, Segment, MessageAbout, EntityFormat } from './core/perturb.js';
export { measureLadder, perturbSamples } from './core/ladder.js';
export type { LadderStep, PerturbSample } from './core/ladder.js';
export { parseScenario, scenarioBaseSchema, scenarioCategories } from './core/scenario.js';
export type { Scenario, ScenarioRequest } from './core/scenario.js';
export { ScriptedUser, renderTemplate } from './core/user.js';
export type { Confusion, UserStep, UserMessage } from './core/user.js';
export { runEpisode, judge, episodeSeeds, keyString, WorldHarness, DeadlineError } from './core/episode.js';
export type { EpisodeKey, EpisodeRecord, EpisodeOutcome, EpisodeOptions, PreparedScenario } from './core/episode.js';
export { runSweep, planKeys } from './core/sweep.js';
export type { SweepPlan, SweepHooks } from './core/sweep.js';
export { passHatK, passAtK, binomial, meanSe, summarizeCell, Tally } from './core/stats.js';
export type { CellSummary, KEstimate, TaskCount } from './core/stats.js';
export { validateScenarios } from './core/validate.js';
export type { ScenarioValidity } from './core/validate.js';
export { buildGrid } from './report/grid.js';
export type { Grid, GridMeta } from './report/grid.js';
export { renderTable } from './report/table.js';

export { worlds, getWorld, loadScenarios, scenarioDir } from '../scenarios/index.js';
export { faultKinds, faultProfiles, getFaultKind, getFaultProfile, connectionResetError } from '../faults/index.js';
export { perturbationFamilies, getPerturbationFamily } from '../perturbations/index.js';
