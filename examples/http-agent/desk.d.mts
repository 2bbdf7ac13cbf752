/** Types of desk.mjs, for TypeScript drivers (the parity test, a module agent). */
export type DeskAction = { type: 'call'; tool: string; args: Record<string, unknown>; key?: string } | { type: 'wait'; ms: number } | { type: 'reply'; text: string };
export interface DeskResult {
  type?: 'result';
  status: number;
  retryAfter?: string;
  date?: string;
  body: unknown;
}
export type DeskEvent = { type: 'user'; text: string } | DeskAction | ({ type: 'result' } & DeskResult);
export interface DeskOptions {
  /** Prefix of the Idempotency-Keys the desk makes. @default "desk" */
  keyPrefix?: string;
}
export declare const MAX_ATTEMPTS: number;
export declare function delayFor(result: DeskResult, attempt: number): number;
export declare function decide(history: readonly DeskEvent[], options?: DeskOptions): DeskAction;
export declare function deskReply(history: DeskEvent[], text: string, io: { call(action: DeskAction & { type: 'call' }): Promise<DeskResult>; wait(ms: number): Promise<void> }, options?: DeskOptions): Promise<string>;
export declare function httpCall(fetchFn: typeof fetch, baseUrl: string, tools: readonly { name: string; method: string; path: string }[], action: DeskAction & { type: 'call' }, signal?: AbortSignal): Promise<DeskResult>;
export declare function mcpCall(client: { callTool(request: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> }, action: DeskAction & { type: 'call' }): Promise<DeskResult>;
/** The pieces a desk for another world is built of (travel-desk.mjs). */
export declare const RETRYABLE: ReadonlySet<number>;
export declare const EMAIL: RegExp;
export declare const YES: RegExp;
export declare const NO: RegExp;
export declare function callsOf(history: readonly DeskEvent[]): { call: DeskAction & { type: 'call' }; result: (DeskResult & { type: 'result' }) | undefined; index: number }[];
export declare const ok: (result: DeskResult | undefined) => boolean;
export declare function logical(history: readonly DeskEvent[], tool: string, args: Record<string, unknown>, key?: string): { action: DeskAction; result?: undefined } | { action?: undefined; result: DeskResult };
