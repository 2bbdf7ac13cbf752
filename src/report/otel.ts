/**
 * A run's episodes as OpenTelemetry traces (`--otel FILE|URL`), on the GenAI semantic conventions, through
 * the OpenTelemetry JS SDK: one trace per episode, its root span the agent's invocation, a span per user
 * turn, per model call and per tool call, faults as events on their tool calls, and the verdict and its
 * findings as evaluation events on the root (docs/traces.md lists every span and attribute).
 *
 * To a URL the traces go as OTLP/HTTP (JSON) to URL/v1/traces; to a file as OTLP JSON lines, one export
 * request per line (the OpenTelemetry file format a collector's `otlpjsonfile` receiver reads). Trace and
 * span ids follow from the run (a hash of its key) and the episode's key, so an export is the same every time but for
 * its timestamps: the spans are laid on the episode's simulated time from the moment of export, so that a
 * tracing UI's default window shows them.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Attributes, HrTime, Span, Tracer } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ShakedownError } from '../ground/errors.js';
import { keyString, type EpisodeRecord } from '../ground/record.js';
import { parseRecord, readLastLineBytes } from '../store/log-lines.js';
import { packageVersion, readManifest } from '../store/rundir.js';
import type { OtelDestination } from './otel-destination.js';

export { otelDestination, type OtelDestination } from './otel-destination.js';

/** Ids from the run's seed and the episode: the same export gives the same traces. */
class EpisodeIds {
  private base = '';
  private n = 0;
  start(seed: string, key: string): void {
    this.base = `${seed}|${key}`;
    this.n = 0;
  }
  private hex(what: string, length: number): string {
    const h = createHash('sha256').update(`${this.base}|${what}`).digest('hex').slice(0, length);
    // An id of all zeros is invalid.
    return /^0+$/.test(h) ? `${'0'.repeat(length - 1)}1` : h;
  }
  generateTraceId = (): string => this.hex('trace', 32);
  generateSpanId = (): string => this.hex(`span ${this.n++}`, 16);
}

/** Writes each batch of spans as one OTLP JSON line. */
function fileExporter(path: string, serialize: (spans: ReadableSpan[]) => Uint8Array | undefined): SpanExporter {
  try {
    writeFileSync(path, '');
  } catch (error) {
    throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to write the traces to ${path}: ${(error as Error).message}. Give \`--otel\` a file in a folder that exists, or an OTLP/HTTP endpoint.`, { cause: error });
  }
  return {
    export(spans, done) {
      try {
        const bytes = serialize(spans);
        if (bytes) appendFileSync(path, `${Buffer.from(bytes).toString('utf8')}\n`);
        done({ code: 0 });
      } catch (error) {
        done({ code: 1, error: error as Error });
      }
    },
    shutdown: async () => undefined,
  };
}

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** The model an LLM agent's id names (`llm:gpt-4o-mini+backoff` -> gpt-4o-mini), if it names one. */
const modelOf = (agent: string): string | undefined => /^(?:llm|anthropic):([^+@]+)/.exec(agent)?.[1];
const providerOf = (agent: string): string | undefined => (agent.startsWith('anthropic:') ? 'anthropic' : agent.startsWith('llm:') ? 'openai' : undefined);

/** A GenAI message as the conventions' JSON form has it: a role and text parts. */
const genAiMessages = (role: string, text: string): string => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

/** One episode's spans, on its simulated time from `t0` (ms since the epoch). */
function episodeSpans(tracer: Tracer, api: typeof import('@opentelemetry/api'), r: EpisodeRecord, world: string, t0: number): number {
  let spans = 0;
  const at = (ms: number) => hr(t0 + Math.max(0, ms));
  const agent = r.key.agent;
  const model = modelOf(agent);
  const provider = providerOf(agent);
  const rootAttributes: Attributes = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': agent,
    'gen_ai.agent.id': agent,
    'gen_ai.conversation.id': r.episodeId,
    ...(provider ? { 'gen_ai.provider.name': provider } : {}),
    ...(model ? { 'gen_ai.request.model': model } : {}),
    ...(r.usage ? { 'gen_ai.usage.input_tokens': r.usage.promptTokens, 'gen_ai.usage.output_tokens': r.usage.completionTokens } : {}),
    'shakedown.world': world,
    'shakedown.scenario': r.key.scenario,
    'shakedown.eps': r.key.eps,
    'shakedown.lambda': r.key.lambda,
    'shakedown.trial': r.key.trial,
    'shakedown.outcome': r.outcome,
    'shakedown.ended': r.ended,
    ...(r.failure ? { 'shakedown.failure': r.failure } : {}),
    'shakedown.simulated_ms': r.simulatedMs,
  };
  const end = Math.max(r.simulatedMs, ...r.trace.map((t) => t.atMs), ...(r.modelCalls ?? []).map((m) => m.atMs));
  const root = tracer.startSpan(`invoke_agent ${agent}`, { kind: api.SpanKind.INTERNAL, startTime: at(0), attributes: rootAttributes });
  spans++;
  const rootContext = api.trace.setSpan(api.context.active(), root);
  // The user turns: a user message and the agent's answer, with the calls made answering it.
  const turns: { user: string; agent?: string; original?: string; perturbations?: readonly string[] }[] = [];
  for (const m of r.messages) {
    if (m.role === 'user') turns.push({ user: m.text, ...(m.original !== undefined ? { original: m.original } : {}), ...(m.perturbations ? { perturbations: m.perturbations } : {}) });
    else if (turns.length > 0) (turns[turns.length - 1] as { agent?: string }).agent = m.text;
  }
  const firstOf = (turn: number) => Math.min(...r.trace.filter((t) => t.turn === turn).map((t) => t.atMs), ...(r.modelCalls ?? []).filter((m) => m.turn === turn).map((m) => m.atMs));
  let previousEnd = 0;
  const turnSpans: Span[] = [];
  for (const [i, turn] of turns.entries()) {
    const first = firstOf(i);
    const last = Math.max(...r.trace.filter((t) => t.turn === i).map((t) => t.atMs), ...(r.modelCalls ?? []).filter((m) => m.turn === i).map((m) => m.atMs));
    const start = Number.isFinite(first) ? Math.min(first, Math.max(previousEnd, 0)) : previousEnd;
    const stop = Number.isFinite(last) ? last : start;
    previousEnd = stop;
    const span = tracer.startSpan(`turn ${i + 1}`, {
      startTime: at(start),
      attributes: {
        'shakedown.turn': i + 1,
        'gen_ai.input.messages': genAiMessages('user', turn.user),
        ...(turn.agent !== undefined ? { 'gen_ai.output.messages': genAiMessages('assistant', turn.agent) } : {}),
        ...(turn.original !== undefined ? { 'shakedown.user.original': turn.original, 'shakedown.perturbations': [...(turn.perturbations ?? [])] } : {}),
      },
    }, rootContext);
    spans++;
    span.end(at(stop));
    turnSpans.push(span);
  }
  const parentOf = (turn: number | undefined) => api.trace.setSpan(api.context.active(), (turn !== undefined ? turnSpans[turn] : undefined) ?? root);
  // Each model call, under the turn it answered: its tokens (its start is not recorded; it ends when it answered).
  for (const [i, m] of (r.modelCalls ?? []).entries()) {
    const span = tracer.startSpan(`chat ${model ?? agent}`, {
      kind: api.SpanKind.CLIENT,
      startTime: at(m.atMs),
      attributes: { 'gen_ai.operation.name': 'chat', ...(provider ? { 'gen_ai.provider.name': provider } : {}), ...(model ? { 'gen_ai.request.model': model } : {}), 'gen_ai.usage.input_tokens': m.promptTokens, 'gen_ai.usage.output_tokens': m.completionTokens, 'shakedown.model_call': i + 1 },
    }, parentOf(m.turn));
    spans++;
    span.end(at(m.atMs));
  }
  // Each tool call, under its turn; a fault that struck it is an event on it.
  const fired = new Map(r.faults.map((f) => [`${f.tool}#${f.ordinal}`, f]));
  for (const t of r.trace) {
    const tool = t.tool ?? 'outside the world';
    const span = tracer.startSpan(`execute_tool ${tool}`, {
      kind: api.SpanKind.CLIENT,
      startTime: at(t.atMs),
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': tool,
        'gen_ai.tool.type': 'function',
        'http.request.method': t.method,
        'url.path': t.path,
        'http.response.status_code': t.status,
        ...(t.idempotencyKey ? { 'shakedown.idempotency_key': t.idempotencyKey } : {}),
        ...(t.replayed ? { 'shakedown.replayed': true } : {}),
        ...(t.refused ? { 'shakedown.refused': t.refused } : {}),
      },
    }, parentOf(t.turn));
    spans++;
    const f = t.tool ? fired.get(`${t.tool}#${t.ordinal}`) : undefined;
    if (t.fault) {
      span.addEvent('shakedown.fault', { 'shakedown.fault.kind': t.fault, ...(f?.phase ? { 'shakedown.fault.phase': f.phase } : {}), ...(f?.variant ? { 'shakedown.fault.variant': f.variant } : {}), 'shakedown.fault.lied': t.lied === true }, at(t.atMs));
    }
    if (t.status === 0 || t.status >= 400) span.setStatus({ code: api.SpanStatusCode.ERROR, message: t.status === 0 ? 'no response' : `HTTP ${t.status}` });
    if (t.status === 0 || t.status >= 400) span.setAttribute('error.type', t.status === 0 ? 'no_response' : String(t.status));
    span.end(at(t.atMs));
  }
  // The verdict, and each finding, as evaluation results on the root.
  const why = [r.failure, ...r.diff.slice(0, 5).map((d) => d.message), ...r.missingOutputs.map((o) => `required output not stated: ${o}`), r.error ? `${r.error.name}: ${r.error.message}` : undefined].filter((x): x is string => typeof x === 'string' && x !== '');
  root.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.name': 'shakedown.verdict', 'gen_ai.evaluation.score.label': r.outcome, 'gen_ai.evaluation.score.value': r.outcome === 'pass' ? 1 : 0, ...(why.length > 0 ? { 'gen_ai.evaluation.explanation': why.join('; ') } : {}) }, at(end));
  for (const f of r.findings ?? []) root.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.name': `shakedown.finding.${f.class}`, 'gen_ai.evaluation.score.label': 'finding', 'gen_ai.evaluation.explanation': f.message }, at(end));
  if (r.outcome === 'error') root.setStatus({ code: api.SpanStatusCode.ERROR, message: r.error?.message ?? r.ended });
  root.end(at(end));
  return spans;
}

/** Episodes whose spans are sent before the log is read on. */
const FLUSH_EVERY = 500;

/** Exports every episode of a run (the last record of each key) to `dest`; returns how many episodes and spans. */
export async function exportOtel(runDir: string, dest: OtelDestination): Promise<{ episodes: number; spans: number }> {
  const manifest = readManifest(runDir, 'export the run as traces');
  const [api, { BasicTracerProvider, BatchSpanProcessor }, { resourceFromAttributes }, { JsonTraceSerializer }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/otlp-transformer'),
  ]);
  const exporter = dest.kind === 'file' ? fileExporter(dest.path, (spans) => JsonTraceSerializer.serializeRequest(spans)) : new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter({ url: dest.url, timeoutMillis: 5_000 });
  const ids = new EpisodeIds();
  let failure: Error | undefined;
  const guarded: SpanExporter = {
    export: (spans, done) => exporter.export(spans, (result) => {
      if (result.code !== 0) failure ??= result.error ?? new Error('the exporter failed');
      done(result);
    }),
    shutdown: () => exporter.shutdown(),
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'shakedown', 'service.version': packageVersion(), 'shakedown.run': basename(resolve(runDir)), 'shakedown.seed': manifest.seed }),
    idGenerator: ids,
    spanProcessors: [new BatchSpanProcessor(guarded, { maxExportBatchSize: 512, maxQueueSize: 1_000_000, scheduledDelayMillis: 60_000 })],
  });
  const tracer = provider.getTracer('shakedown', packageVersion());
  const t0 = Date.now(); // clock: where the traces sit on a tracing UI's timeline; no outcome depends on it
  let episodes = 0;
  let spans = 0;
  // Ids from the run, not its seed alone: two runs of one seed (every release sweep of a CI job) must not
  // share trace ids. The run's key is secret: only a hash of it goes in.
  const runId = createHash('sha256').update(typeof manifest.key === 'string' ? manifest.key : `${manifest.seed}|${basename(resolve(runDir))}`).digest('hex').slice(0, 16);
  await readLastLineBytes(join(runDir, 'episodes.jsonl'), async (buf, start, end) => {
    const r = parseRecord(buf.toString('utf8', start, end));
    if (!r) return;
    ids.start(runId, keyString(r.key));
    spans += episodeSpans(tracer, api, r, manifest.world, t0);
    episodes++;
    // The log is read as fast as the spans go out: a large run never queues more than this many episodes' spans.
    if (episodes % FLUSH_EVERY === 0) await provider.forceFlush();
  });
  try {
    await provider.forceFlush();
    await provider.shutdown();
  } catch (error) {
    // The SDK rejects with the exporters' errors (a list of them).
    const first = Array.isArray(error) ? error[0] : error;
    failure ??= first instanceof Error ? first : new Error(String(first));
  }
  if (failure) throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to export the traces to ${dest.kind === 'url' ? dest.url : dest.path}: ${failure.message}. Check that an OTLP/HTTP receiver listens there (an OpenTelemetry Collector, Jaeger or Tempo on port 4318), or write them to a file.`);
  return { episodes, spans };
}
