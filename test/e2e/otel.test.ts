// `--otel`: each episode as an OpenTelemetry trace on the GenAI conventions, sent over OTLP/HTTP to a
// receiver this test starts on loopback, and written as OTLP JSON lines to a file; both read back.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shakedown } from '../cli-run.js';
import { startStubModel } from '../../src/run/stub-model.js';
import { otelDestination } from '../../src/report/otel-destination.js';

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean; arrayValue?: { values: AnyValue[] } };
type KeyValue = { key: string; value: AnyValue };
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; startTimeUnixNano: string; endTimeUnixNano: string; attributes: KeyValue[]; events: { name: string; attributes: KeyValue[] }[]; status?: { code?: number } };
type Request = { resourceSpans: { resource: { attributes: KeyValue[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };

const value = (v: AnyValue | undefined): unknown => (v === undefined ? undefined : v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue ?? v.arrayValue?.values.map(value));
const attrs = (kvs: readonly KeyValue[]): Record<string, unknown> => Object.fromEntries(kvs.map((kv) => [kv.key, value(kv.value)]));
const spansOf = (requests: readonly Request[]) => requests.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));

/** An OTLP/HTTP receiver on loopback that keeps each JSON export request. */
async function receiver(): Promise<{ url: string; requests: Request[]; paths: string[]; close: () => Promise<void> }> {
  const requests: Request[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      requests.push(JSON.parse(raw) as Request);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, paths, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('OpenTelemetry export', () => {
  it('sends each episode as a trace: the invocation, its turns, model calls and tool calls, faults as events, the verdict as an evaluation', async () => {
    const otlp = await receiver();
    const model = await startStubModel();
    const key = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'stub';
    const root = mkdtempSync(join(tmpdir(), 'shakedown-otel-'));
    try {
      const r = await shakedown('sweep', '--agent', 'llm:stub', '--llm-base-url', model.baseUrl, '--scenario', 'cancel-pending-mistake', '--eps', '0', '--lambda', '0.3', '--trials', '4', '--profile', 'rate-limit', '--out', join(root, 'run'), '--otel', otlp.url);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/OpenTelemetry: 4 episode\(s\) as \d+ span\(s\) to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
    } finally {
      if (key === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = key;
      await model.close();
      await otlp.close();
    }
    expect(otlp.paths.every((p) => p.startsWith('POST /v1/traces application/json'))).toBe(true);
    expect(attrs(otlp.requests[0]?.resourceSpans[0]?.resource.attributes ?? [])).toMatchObject({ 'service.name': 'shakedown', 'shakedown.run': 'run', 'shakedown.seed': '42' });
    const spans = spansOf(otlp.requests);
    const roots = spans.filter((s) => s.parentSpanId === undefined || s.parentSpanId === '');
    expect(roots).toHaveLength(4);
    expect(new Set(roots.map((s) => s.traceId)).size).toBe(4);
    const records = readFileSync(join(root, 'run', 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const rec of records) {
      const top = roots.find((s) => attrs(s.attributes)['shakedown.trial'] === rec.key.trial) as OtlpSpan;
      expect(top.name).toBe('invoke_agent llm:stub');
      expect(attrs(top.attributes)).toMatchObject({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'llm:stub', 'gen_ai.conversation.id': rec.episodeId, 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'stub', 'gen_ai.usage.input_tokens': rec.usage.promptTokens, 'gen_ai.usage.output_tokens': rec.usage.completionTokens, 'shakedown.scenario': 'cancel-pending-mistake', 'shakedown.lambda': 0.3, 'shakedown.outcome': rec.outcome });
      const mine = spans.filter((s) => s.traceId === top.traceId);
      const turns = mine.filter((s) => /^turn \d+$/.test(s.name));
      expect(turns).toHaveLength(rec.messages.filter((m: { role: string }) => m.role === 'user').length);
      expect(turns.every((t) => t.parentSpanId === top.spanId)).toBe(true);
      expect(JSON.parse(attrs(turns[0]?.attributes ?? [])['gen_ai.input.messages'] as string)).toEqual([{ role: 'user', parts: [{ type: 'text', content: rec.messages[0].text }] }]);
      // A span per model call with its tokens, and per tool call with its status, each under its turn.
      const chats = mine.filter((s) => s.name === 'chat stub');
      expect(chats).toHaveLength(rec.usage.calls);
      expect(chats.reduce((n, s) => n + (attrs(s.attributes)['gen_ai.usage.input_tokens'] as number), 0)).toBe(rec.usage.promptTokens);
      const tools = mine.filter((s) => s.name.startsWith('execute_tool '));
      expect(tools.map((s) => attrs(s.attributes)['gen_ai.tool.name'])).toEqual(rec.trace.map((t: { tool: string }) => t.tool));
      expect(tools.map((s) => attrs(s.attributes)['http.response.status_code'])).toEqual(rec.trace.map((t: { status: number }) => t.status));
      for (const s of [...chats, ...tools]) expect(turns.map((t) => t.spanId)).toContain(s.parentSpanId);
      // Faults as events on the call they struck.
      const faulted = rec.trace.filter((t: { fault?: string }) => t.fault).length;
      const events = tools.flatMap((s) => s.events.filter((e) => e.name === 'shakedown.fault'));
      expect(events).toHaveLength(faulted);
      for (const e of events) expect(attrs(e.attributes)['shakedown.fault.kind']).toBe('rate-limit');
      // The verdict as an evaluation result.
      const verdict = top.events.find((e) => e.name === 'gen_ai.evaluation.result' && attrs(e.attributes)['gen_ai.evaluation.name'] === 'shakedown.verdict');
      expect(attrs(verdict?.attributes ?? [])).toMatchObject({ 'gen_ai.evaluation.score.label': rec.outcome, 'gen_ai.evaluation.score.value': rec.outcome === 'pass' ? 1 : 0 });
      expect(top.events.filter((e) => String(attrs(e.attributes)['gen_ai.evaluation.name']).startsWith('shakedown.finding.'))).toHaveLength((rec.findings ?? []).length);
    }
    // Some call met a rate limit, so the events above were checked on at least one.
    expect(spans.some((s) => s.events.some((e) => e.name === 'shakedown.fault'))).toBe(true);
  }, 120_000);

  it('writes OTLP JSON lines to a file, with the same ids each time', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shakedown-otel-file-'));
    const run = join(root, 'run');
    const r = await shakedown('sweep', '--agent', 'reference:none', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '2', '--out', run, '--otel', join(root, 'a.jsonl'));
    expect(r.code, r.stderr).toBe(0);
    expect((await shakedown('report', run, '--format', 'csv', '--otel', join(root, 'b.jsonl'))).code).toBe(0);
    const read = (f: string) => spansOf(readFileSync(join(root, f), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Request));
    const a = read('a.jsonl');
    expect(a.filter((s) => s.name === 'invoke_agent reference:none')).toHaveLength(2);
    expect(a.map((s) => `${s.traceId}/${s.spanId}/${s.name}`).sort()).toEqual(read('b.jsonl').map((s) => `${s.traceId}/${s.spanId}/${s.name}`).sort());
  }, 60_000);

  it('reads --otel as a URL or a file, and refuses what it cannot send to', () => {
    expect(otelDestination('http://localhost:4318')).toEqual({ kind: 'url', url: 'http://localhost:4318/v1/traces' });
    expect(otelDestination('https://otel.example.org/v1/traces')).toEqual({ kind: 'url', url: 'https://otel.example.org/v1/traces' });
    expect(otelDestination('traces.jsonl')).toMatchObject({ kind: 'file' });
    expect(() => otelDestination('grpc://localhost:4317')).toThrow(/OTLP\/HTTP/);
  });

  it('says what to fix when the file cannot be written', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shakedown-otel-nofolder-'));
    const run = join(root, 'run');
    expect((await shakedown('sweep', '--agent', 'reference:none', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '2', '--out', run, '--quiet')).code).toBe(0);
    const r = await shakedown('report', run, '--format', 'csv', '--otel', join(root, 'no-such-folder', 'traces.jsonl'));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Failed to write the traces to .*no-such-folder\/traces\.jsonl: .*Give `--otel` a file in a folder that exists/);
  }, 60_000);

  it('says so when nothing receives the traces', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shakedown-otel-down-'));
    const dead = await receiver();
    await dead.close();
    const r = await shakedown('sweep', '--agent', 'reference:none', '--scenario', 'read-order-status', '--eps', '0', '--lambda', '0', '--trials', '2', '--out', join(root, 'run'), '--otel', dead.url);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Failed to export the traces to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: .*Check that an OTLP\/HTTP receiver listens there/);
    // The run itself is whole: the export comes after it.
    expect(JSON.parse(readFileSync(join(root, 'run', 'run.json'), 'utf8')).complete).toBe(true);
  }, 60_000);
});
