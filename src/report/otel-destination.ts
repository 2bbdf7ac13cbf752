// Where `--otel` sends a run's traces, read without loading the OpenTelemetry SDK (report/otel.ts exports them).
import { resolve } from 'node:path';
import { ShakedownError } from '../ground/errors.js';

/** Where the traces go: an OTLP/HTTP endpoint, or a file of OTLP JSON lines. */
export type OtelDestination = { readonly kind: 'url'; readonly url: string } | { readonly kind: 'file'; readonly path: string };

/** `--otel` read: a URL (http or https; `/v1/traces` added unless it ends so), else a file path. */
export function otelDestination(raw: string): OtelDestination {
  const v = raw.trim();
  if (v === '') throw new ShakedownError('SHAKEDOWN_CONFIG', 'Failed to read `--otel`: give a file (traces.jsonl) or an OTLP/HTTP endpoint (http://localhost:4318).');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--otel ${raw}\`: not a URL. Give an OTLP/HTTP endpoint such as http://localhost:4318, or a file.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ShakedownError('SHAKEDOWN_CONFIG', `Failed to read \`--otel ${raw}\`: traces go over OTLP/HTTP (http:// or https://), not ${url.protocol}. For gRPC, put an OpenTelemetry Collector in between.`);
    const path = url.pathname.replace(/\/+$/, '');
    return { kind: 'url', url: `${url.origin}${path.endsWith('/v1/traces') ? path : `${path}/v1/traces`}${url.search}` };
  }
  return { kind: 'file', path: resolve(v) };
}

