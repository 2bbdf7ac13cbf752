/**
 * What every scripted reference agent shares, whatever its world: tool calls through the strategy layer,
 * the conversation loop (a task, a confirmation before each write, re-prompts), identity lookups and
 * the way failures reach the user. A world's agent says how it reads the user, plans and checks writes.
 */
import type { ToolResult } from '../../ground/tools.js';
import type { Agent, AgentContext } from '../contract.js';
import { strategyClient, type Strategy, type ToolCall, type WriteCheck } from '../strategies.js';
import type { Understanding } from './understanding.js';
import { voiced, type Voice } from './voice.js';

/**
 * Why the agent cannot go on with a task; `system` when the tools failed rather than the policy said no,
 * `uncertain` when a write may have taken effect (no answer, a 5xx, an unreadable body).
 */
export class Failure extends Error {
  readonly system: boolean;
  readonly uncertain: boolean;
  constructor(message: string, system = false, uncertain = false) {
    super(message);
    this.system = system;
    this.uncertain = uncertain;
  }
}

/** A write whose outcome the agent cannot tell: it says so rather than claim either way. */
export class UncertainWrite extends Failure {
  readonly what: string;
  constructor(message: string, what: string) {
    super(message, true, true);
    this.what = what;
  }
}

/** A 404 for a record the user named: a policy-level failure unless the agent confirms and still cannot find it. */
export class NotFound extends Failure {
  readonly entityId: string;
  constructor(entityId: string, message: string) {
    super(message);
    this.entityId = entityId;
  }
}

/** A write the agent has proposed and waits for a yes to. */
export interface PendingAction {
  tool: string;
  args: Record<string, unknown>;
  success: (body: unknown) => string;
  /** The change in words, for what the agent says when it cannot tell whether it went through: "the cancellation of order #W9000201". */
  what?: string;
}

export const ANYTHING_ELSE = ' Is there anything else I can help you with?';
/** Re-prompts in a row before the agent gives up on a message it cannot place. */
const MAX_REPROMPTS = 2;
const HANDED_OFF = "I'm sorry, I can't complete this myself right now, so I've handed your request to a colleague on our support team, who will follow up with you by e-mail.";
const HANDED_OFF_UNSURE = (what: string) =>
  `I'm sorry, I couldn't confirm whether ${what} went through, so I've handed your request to a colleague on our support team, who will check and follow up with you by e-mail.`;

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An answer a strategy's other route put together, marked as such in its headers. */
export const fallbackResult = (body: unknown): ToolResult => ({ ok: true, status: 200, body, headers: new Headers({ 'x-shakedown-route': 'fallback' }) });

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
/** A name after "I'm", "my name is", "under", "this is". */
const NAME = /(?:\bi'?m|\bi am|\bname is|\bunder|\bthis is)\s+([a-z][a-z'-]+)\s+([a-z][a-z'-]+)/i;
/** The same with any short word before "is", for a mistyped "name is". */
const NAME_LOOSE = /(?:\bi'?m|\bi am|\b[a-z]{3,5}\s+is|\bunder|\bthis is)\s+([a-z][a-z'-]+)\s+([a-z][a-z'-]+)/i;

/** The words a world's agent uses where the shared loop speaks. */
export interface AgentWording {
  /** What it says when the user's messages cannot be placed twice in a row, then gives up. */
  readonly giveUp: string;
  /** What the user is asked for to verify their identity, e.g. "your email address, or ...". */
  readonly identityAsk: string;
  /** The end of "I can't find an account matching what you gave me, so I can't help with ...". */
  readonly accountMissing: string;
  /** The system whose answers it cannot read, e.g. "order system". */
  readonly system: string;
}

export abstract class ReferenceAgentBase implements Agent {
  protected readonly call: ToolCall;
  protected readonly u: Understanding;
  /** Whether a strategy hands failures it cannot fix to a human. */
  protected readonly handsOff: boolean;
  /** Whether a strategy asks the user to confirm a record the tools cannot find. */
  private readonly confirmsNotFound: boolean;
  /** Record ids the user has already confirmed once after a 404. */
  private readonly confirmedMissing = new Set<string>();
  private readonly escalate: (reason: string) => void;
  protected userId: string | undefined;
  /** The last e-mail address the user gave. */
  protected email: string | undefined;
  /** The last name the user gave, with the detail that identifies it (a zip code, a date of birth). */
  protected name: { first: string; last: string } | undefined;
  protected readonly triedIdentities = new Set<string>();
  protected pending: PendingAction | undefined;
  /** Replies in a row in which the agent could not place the user's message. */
  private unplaced = 0;
  private readonly wording: AgentWording;

  constructor(ctx: AgentContext, strategies: readonly Strategy[], understanding: Understanding, wording: AgentWording, params: Readonly<Record<string, unknown>> = {}) {
    this.u = understanding;
    this.wording = wording;
    this.handsOff = strategies.some((s) => s.handsOff);
    this.confirmsNotFound = strategies.some((s) => s.confirmsNotFound);
    this.escalate = ctx.escalate;
    this.call = strategyClient(ctx, strategies, params, 'strategies', {
      verifyWrite: (tool, args) => this.verifyWrite(tool, args),
      alternative: (tool, args, call) => this.alternative(tool, args, call),
    });
  }

  /** Reads what the user said into the current task (or starts one). */
  protected abstract absorb(message: string): void;
  /** Takes the current task one step further: a question, a proposal, or an answer. */
  protected abstract step(): Promise<string>;
  /** Forgets the current task. */
  protected abstract dropTask(): void;
  /** Reads the state to tell whether a write took effect (the `verify` strategy asks it). */
  protected abstract verifyWrite(tool: string, args: Readonly<Record<string, unknown>>): Promise<WriteCheck>;
  /** Another route to a fact a read did not return (the `fallback` strategy asks it). */
  protected abstract alternative(tool: string, args: Readonly<Record<string, unknown>>, call: ToolCall): Promise<ToolResult | undefined>;

  /** How the agent words its replies (wording only; see voice.ts). @default 'terse' */
  voice: Voice = 'terse';
  private turns = 0;

  async reply(message: string): Promise<string> {
    return voiced(await this.answer(message), this.voice, this.turns++);
  }

  private async answer(message: string): Promise<string> {
    const before = this.taskSignature();
    this.absorb(message);
    try {
      if (this.pending) {
        const toks = this.u.tokens(message);
        // A refusal wins over a stray "okay" (as in "if that is okay, no, not that one").
        if (this.u.hasAny(toks, ['no', 'nope', 'not the one', 'wrong', 'not right'])) {
          this.pending = undefined;
          // "No, that's not the one: it's #W9000404" corrects the task; a plain no declines the change.
          if (before === undefined || this.taskSignature() !== before) return await this.step();
          this.unplaced = 0;
          return this.done("All right, I won't make that change.");
        }
        if (this.u.hasAny(toks, ['yes', 'yeah', 'yep', 'sure', 'ok', 'okay', 'go ahead', 'please do', 'correct', 'that is right'])) {
          const action = this.pending;
          this.pending = undefined;
          this.unplaced = 0;
          return await this.execute(action);
        }
        return this.notUnderstood('Please answer yes or no: shall I proceed?');
      }
      return await this.step();
    } catch (error) {
      if (error instanceof Failure) {
        this.dropTask();
        this.pending = undefined;
        if (error.system && this.handsOff) {
          this.escalate(error.message);
          return (error instanceof UncertainWrite ? HANDED_OFF_UNSURE(error.what) : HANDED_OFF) + ANYTHING_ELSE;
        }
        return error.message + ANYTHING_ELSE;
      }
      throw error;
    }
  }

  /**
   * Takes the last e-mail address in a text (the last one wins: a user corrects themselves), lower-case
   * for a tolerant reader, and returns the text without e-mail addresses.
   */
  protected absorbEmail(text: string): string {
    const email = [...text.matchAll(EMAIL)].at(-1)?.[0];
    if (!email) return text;
    this.email = this.u.mode === 'tolerant' ? email.toLowerCase() : email;
    return text.replace(EMAIL, ' ');
  }

  /**
   * Takes the name in a text that also gives the detail identifying it; a tolerant reader also finds it
   * after a mistyped "name is" ("my nmae is Ada Lovelace").
   */
  protected absorbName(text: string): void {
    const name = NAME.exec(text) ?? (this.u.mode === 'tolerant' ? NAME_LOOSE.exec(text) : null);
    if (name?.[1] && name[2]) this.name = { first: name[1], last: name[2] };
  }

  /** The user's message was placed: the re-prompt count starts again. */
  protected placed(): void {
    this.unplaced = 0;
  }

  /**
   * Asks again, as a bot's fallback does; after two re-prompts in a row it gives up rather than loop,
   * the way deployed assistants hand a conversation they cannot parse back to the customer.
   */
  protected notUnderstood(prompt: string): string {
    this.unplaced++;
    if (this.unplaced <= MAX_REPROMPTS) return prompt;
    this.unplaced = 0;
    this.pending = undefined;
    this.dropTask();
    return this.wording.giveUp;
  }

  protected done(text: string): string {
    this.dropTask();
    return text + ANYTHING_ELSE;
  }

  protected confirm(summary: string, action: PendingAction): string {
    this.pending = action;
    return `${summary} Shall I proceed? (yes/no)`;
  }

  /**
   * Makes the write the user accepted and says how it went, truthfully: done on a readable 2xx, not done
   * on a refusal (4xx, 429), and "I couldn't confirm whether it went through" when the answer cannot
   * tell (no answer, a 5xx, a body that does not parse), since the write may have committed.
   */
  protected async execute(action: PendingAction): Promise<string> {
    const r = await this.call(action.tool, action.args);
    const unreadable = r.ok && r.body !== undefined && typeof r.body !== 'object';
    if (r.status === 0 || r.status >= 500 || unreadable) {
      const what = action.what ?? 'your request';
      throw new UncertainWrite(
        `I'm sorry, I couldn't confirm whether ${what} went through: our systems ${unreadable ? 'sent an answer I could not read' : r.status === 0 ? 'did not answer' : `answered with error ${r.status}`}. Please check again later before trying again.`,
        what,
      );
    }
    if (!r.ok) throw this.systemFailure(r);
    return this.done(action.success(r.body));
  }

  /**
   * The current task in a form that changes when the user's message changes it (an id, a detail), so
   * that a "no" with a correction re-plans and a plain "no" declines. Undefined: every "no" re-plans.
   */
  protected taskSignature(): string | undefined {
    return undefined;
  }

  /**
   * Waits for the record the user named. A 404 (`NotFound`) is a mistyped id or a lagging system: with a
   * strategy that confirms missing records, the agent asks the user once (the NotFound comes back, to
   * ask with) and, named again, hands it on as a system failure with `stillMissing(id)`; without one,
   * the 404 is reported as it is.
   */
  protected async loadNamed<T>(load: Promise<T>, stillMissing: (id: string) => string): Promise<T | NotFound> {
    return load.catch((error: unknown) => {
      if (error instanceof NotFound && this.confirmsNotFound && !this.confirmedMissing.has(error.entityId)) {
        this.confirmedMissing.add(error.entityId);
        return error;
      }
      if (error instanceof NotFound && this.confirmsNotFound) throw new Failure(stillMissing(error.entityId), true);
      throw error;
    });
  }

  /** The question to ask when the user is not identified yet. */
  protected identityQuestion(): string {
    if (this.triedIdentities.size > 0) return `I couldn't find an account with those details. Could you give me ${this.wording.identityAsk}?`;
    return `Before I can help, I need to verify your identity. Could you give me ${this.wording.identityAsk}?`;
  }

  /**
   * Finds the user's id by the lookups the user's words allow, each tried once (`key` names it; the id
   * is read from the answer's `idField`, by default `userId`). Two lookups the user is sure of and no
   * account: a lagging directory as likely as a wrong detail.
   */
  protected async lookUpUser(lookups: readonly { key: string; tool: string; args: Record<string, unknown>; idField?: string }[]): Promise<string | undefined> {
    if (this.userId) return this.userId;
    for (const { key, tool, args, idField = 'userId' } of lookups) {
      if (this.triedIdentities.has(key)) continue;
      this.triedIdentities.add(key);
      const r = await this.call(tool, args);
      const id = isObj(r.body) ? r.body[idField] : undefined;
      if (r.ok && typeof id === 'string') return (this.userId = id);
      if (r.status !== 404) throw this.systemFailure(r);
    }
    if (this.triedIdentities.size >= 2) throw new Failure(`I'm sorry, I can't find an account matching what you gave me, so I can't help with ${this.wording.accountMissing}.`, true);
    return undefined;
  }

  protected systemFailure(r: ToolResult): Failure {
    if (r.status === 0 || r.status === 429 || r.status >= 500) {
      return new Failure(`I'm sorry, our systems are not responding right now (${r.status === 0 ? 'no response' : `error ${r.status}`}), so I can't complete this. Please try again later.`, true);
    }
    const message = isObj(r.body) && typeof r.body.message === 'string' ? r.body.message : `error ${r.status}`;
    return new Failure(`I'm sorry, I couldn't complete that: ${message}`);
  }

  protected malformed(): Failure {
    return new Failure(`I'm sorry, I got a response from our ${this.wording.system} that I can't read, so I can't complete this right now.`, true);
  }
}
