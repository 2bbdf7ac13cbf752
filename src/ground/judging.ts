// What a world declares for the judge: conduct rules and claim wording, as data (DESIGN decision 14), and
// the claim reader's contract, which the judge, the LLM judge and the episode runner share.

/** What a message says about the outcome of an action. */
export type ClaimLabel = 'success' | 'failure' | 'pending' | 'none';

export const CLAIM_LABELS: readonly ClaimLabel[] = ['success', 'failure', 'pending', 'none'];

/** One message to read, and the action it may speak of (the names a sentence about it would use). */
export interface ClaimQuestion {
  readonly text: string;
  /** The action, in words: `cancel_order on #W9000201`. */
  readonly action?: string;
  /** Values that name the action's record (ids, key values); sentences naming them are read first. */
  readonly names?: readonly string[];
}

/**
 * Reads claims out of agent messages. The default reads the world's wording data; `llm:MODEL` asks a
 * model and is accepted only after it agrees with hand labels (`shakedown calibrate`).
 */
export interface ClaimReader {
  /** `wording`, or `llm:MODEL`. Recorded in run.json. */
  readonly id: string;
  read(questions: readonly ClaimQuestion[]): Promise<ClaimLabel[]>;
}

/** Phrases that say a write succeeded, failed, or that its outcome is not known yet. A world adds its own. */
export interface ClaimWording {
  readonly success: readonly RegExp[];
  readonly failure: readonly RegExp[];
  readonly pending: readonly RegExp[];
}

/** A tool that reads or writes a user's private records, and how to find whose record a call touches. */
export type PrivateAccess =
  /** The argument names the user (`/users/{userId}/...`). */
  | { readonly user: string }
  /** The argument names a record of a collection declared in `records`. */
  | { readonly record: string; readonly arg: string };

/** The conduct rules of a world: who the user is, what is theirs, and what a write must be preceded by. */
export interface ConductRules {
  /**
   * Lookups that identify the user from details the user gives: per tool, the field of its answer that
   * names the user. The call's arguments must be details the user said in the conversation.
   */
  readonly identify: Readonly<Record<string, { readonly subject: string }>>;
  /**
   * Collections of records users own: the field naming the owner, and how a raw id from an argument is
   * written as the collection's key (`#w9000201` -> `W9000201`). @default the id as given
   */
  readonly records: Readonly<Record<string, { readonly owner: string; readonly key?: (raw: string) => string }>>;
  /** Tools that read or write private records; every other tool is public (catalogue, flight status). */
  readonly private: Readonly<Record<string, PrivateAccess>>;
  /**
   * Per write tool, the arguments a confirmation must name: the record id first, then the key values
   * ("I'll change the address of order #W9000201 to ..., 62704"). A write tool not listed needs its
   * record named only.
   */
  readonly confirm?: Readonly<Record<string, readonly string[]>>;
  /**
   * Reading another user's record: `check` allows it (an agent may read an order to see whose it is, as
   * long as it neither writes it nor tells its contents), `forbidden` makes the read itself a violation.
   * @default 'check'
   */
  readonly foreignReads?: 'check' | 'forbidden';
  /**
   * Per identity alternative of the world's user language (`email`, `name-zip`), the lookup that a
   * profile's details make: what the `oracle` baseline calls once the user has given them.
   */
  readonly lookups?: Readonly<Record<string, (profile: Readonly<Record<string, string>>) => { readonly tool: string; readonly args: Readonly<Record<string, unknown>> }>>;
}

/** What a world declares for the judge. */
export interface JudgingRules {
  /** Conduct rules; without them, authentication, ownership and confirmation are not checked. */
  readonly conduct?: ConductRules;
  /** Wording the default claim reader adds to the engine's English phrases. */
  readonly claims?: Partial<ClaimWording>;
  /**
   * Per write tool, the words a sentence telling its action uses (`add_gift_card_funds`: added, topped
   * up), for the claims of writes never tried. @default the first word of the tool's name, inflected
   */
  readonly actionWords?: Readonly<Record<string, RegExp>>;
  /**
   * Words that say what an amount is for ("refund", "balance", "fee"): a later sentence with the same
   * word and another amount contradicts a required output. @default the engine's list
   */
  readonly amountTopics?: readonly string[];
  /** Hand-labelled claims (JSON lines of `{ text, action?, names?, label, split }`) a judge is calibrated on. */
  readonly claimLabels?: string;
}

/** "Ada Lovelace King" as the `{ first, last }` a name lookup takes, for a world's `lookups`. */
export function nameParts(name = ''): { first: string; last: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first, last: rest.join(' ') };
}
