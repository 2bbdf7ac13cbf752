/**
 * Records signed with the run's key, so that a line edited by hand or written by another program is told
 * from one the run wrote: the key (32 random bytes, hex) is made when the run directory is created and kept
 * in run.json (`key`); every record line ends with `"mac":"<hex>"`, the HMAC-SHA256 under that key of the
 * line's bytes before `,"mac":"`.
 *
 * This is tamper-evidence against edits, not protection: any process that can read run.json can sign a
 * line. The check runs on the bytes the log reader already holds, at a fixed place (the last 74 bytes of
 * the line), so it costs one HMAC of the line and nothing else.
 */
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

/** `,"mac":"`, then 64 hex digits, then `"}`: how every signed line ends. */
const MAC_OPEN = Buffer.from(',"mac":"');
const HEX_DIGITS = 64;
/** Bytes of a line's end that are not signed: the MAC field and the record's closing brace. */
export const MAC_SUFFIX_BYTES = MAC_OPEN.length + HEX_DIGITS + 2;
const QUOTE = 34;
const CLOSE_BRACE = 125;

/** A new run key: 32 random bytes as hex. */
export const newRunKey = (): string => randomBytes(32).toString('hex');

/** Whether a value read from run.json can be a run key. */
export const isRunKey = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/** Signs and checks record lines under one run key. */
export class LineSigner {
  private readonly secret: KeyObject;

  constructor(key: string) {
    this.secret = createSecretKey(Buffer.from(key, 'hex'));
  }

  /** The line of a record's JSON (`{...}`, no `mac` member), signed: its bytes up to the closing brace, then the MAC field. */
  sign(json: string): string {
    const body = json.slice(0, json.lastIndexOf('}'));
    return `${body},"mac":"${createHmac('sha256', this.secret).update(body).digest('hex')}"}`;
  }

  /** Whether the line `buf[start, end)` ends with a MAC field that its bytes before that field match. */
  verify(buf: Buffer, start: number, end: number): boolean {
    const body = signedEnd(buf, start, end);
    if (body < 0) return false;
    const given = Buffer.from(buf.toString('latin1', body + MAC_OPEN.length, body + MAC_OPEN.length + HEX_DIGITS), 'hex');
    if (given.length !== 32) return false;
    return timingSafeEqual(createHmac('sha256', this.secret).update(buf.subarray(start, body)).digest(), given);
  }

  /** The line `buf[start, end)` signed again under this key (its old MAC field replaced, or one added). */
  resign(buf: Buffer, start: number, end: number): string {
    return this.sign(unsigned(buf, start, end));
  }
}

/**
 * Where the signed bytes of the line `buf[start, end)` end (the index of `,"mac":"`), or -1 when the line
 * does not end with a MAC field. Only the shape is checked here; the digits are read by `verify`.
 */
export function signedEnd(buf: Buffer, start: number, end: number): number {
  const at = end - MAC_SUFFIX_BYTES;
  if (at <= start || buf[end - 1] !== CLOSE_BRACE || buf[end - 2] !== QUOTE) return -1;
  return buf.compare(MAC_OPEN, 0, MAC_OPEN.length, at, at + MAC_OPEN.length) === 0 ? at : -1;
}

/** The record's JSON without its MAC field (the line as it is when it has none). */
export function unsigned(buf: Buffer, start: number, end: number): string {
  const body = signedEnd(buf, start, end);
  return body < 0 ? buf.toString('utf8', start, end) : `${buf.toString('utf8', start, body)}}`;
}
