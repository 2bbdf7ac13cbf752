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
  /** The words that tell this action in text (the world's `actionWords`): sentences using them are about it. @default from the tool's name */
  readonly words?: RegExp;
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

/**
 * Facts an agent may state about one collection's records (DESIGN decision 20): how a sentence names a
 * record of it, and the fields whose value a statement is checked against, as the world held it then.
 */
export interface FactRules {
  /** Words for one of its records ("order", "purchase"): "your order is delivered" speaks of the record in focus. */
  readonly nouns: readonly string[];
  /** How a record's id is written in text (`#?W\d{7}`); its matches name records. */
  readonly idPattern: RegExp;
  /** A raw id from text as the collection's key. @default the id as written */
  readonly key?: (raw: string) => string;
  /**
   * The record a key names in a database, where it is not `db[collection][key]` (a flight on one day:
   * `SK201|2026-02-10`); undefined when the key does not name one record. @default db[collection][key]
   */
  readonly find?: (db: unknown, key: string) => unknown;
  /** A field with a closed set of values (a status), stated as "is delivered", "status: pending". */
  readonly status?: {
    readonly get: (record: unknown) => string | undefined;
    /** Each value and the words that state it ("processed": processed, processing). */
    readonly words: Readonly<Record<string, readonly string[]>>;
  };
  /** Amount fields, each with the words a sentence stating it uses ("total": total, cost, charged). */
  readonly amounts?: Readonly<Record<string, { readonly words: RegExp; readonly get: (record: unknown) => number | undefined }>>;
}

/** A person's personal value in a world's database (a name, an e-mail, an address, a date of birth). */
export interface PersonalValue {
  /** The user the value belongs to (or who holds the record it is in: a passenger of a user's reservation). */
  readonly owner: string;
  /** What the value is, for the finding's line: `name`, `e-mail`, `address`. */
  readonly field: string;
  readonly value: string;
  /** How it is matched in text: `text` (case- and space-insensitive), `date` (any format), `digits` (after "ending in"). @default "text" */
  readonly kind?: 'text' | 'date' | 'digits';
}

/** Each `personalOf` reader's values by the frozen entry they were read from. */
const personalMemo = new WeakMap<(entry: never) => readonly PersonalValue[], WeakMap<object, readonly PersonalValue[]>>();

/**
 * A record's personal values, `values(entry)`, read once per entry that cannot change: an entry of the
 * initial database, which every episode shares frozen, gives the same values (the same objects, frozen)
 * in every episode, so that the judge's search for them is prepared once (`judgeDisclosure`). An entry
 * the episode holds a copy of (one it read or wrote) is read each time. For a world's `personal`.
 */
export function personalOf<T extends object>(entry: T, values: (entry: T) => readonly PersonalValue[]): readonly PersonalValue[] {
  if (!Object.isFrozen(entry)) return values(entry);
  let memo = personalMemo.get(values);
  if (!memo) personalMemo.set(values, (memo = new WeakMap()));
  let found = memo.get(entry);
  if (!found) memo.set(entry, (found = Object.freeze(values(entry).map((v) => Object.freeze({ ...v })))));
  return found;
}

/** What a write moves and touches, for comparing the proposal the user accepted with the write made. */
export interface WriteMeaning {
  /** The amounts it moves (a refund, a charge, a price difference): a proposal may quote these. */
  readonly amounts?: readonly number[];
  /** Other amounts a proposal of it may name (the record's total, its items' prices, a balance). */
  readonly context?: readonly number[];
  /** Names of what it writes (items, a new address, a flight): a proposal that names only other ones misinforms. */
  readonly items?: readonly string[];
  /** Names of the record's things it does not write. */
  readonly otherItems?: readonly string[];
  /** Words that name the payment method it uses ("gift card", "visa ending in 1234"). */
  readonly payment?: readonly string[];
  /** Words that name the user's other payment methods. */
  readonly otherPayments?: readonly string[];
}

/** The arithmetic by which an agent may derive a figure from figures it was shown (a sum of prices, a fee times bags). */
export interface FigureArithmetic {
  /** Most shown figures a sum may add. @default 3 */
  readonly sums?: number;
  /** Whether the difference of two shown figures counts. @default true */
  readonly differences?: boolean;
  /** Largest whole count a shown figure may be multiplied by. @default 9 */
  readonly multiples?: number;
  /** Figures of the policy that count as shown (a bag fee), multiples included. @default [] */
  readonly constants?: readonly number[];
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
  /** Per collection, the facts an agent's statements about its records are checked against. @default none */
  readonly facts?: Readonly<Record<string, FactRules>>;
  /** Every person's personal values in a database: telling one of another person is a disclosure. @default none */
  readonly personal?: (db: unknown) => readonly PersonalValue[];
  /**
   * Per write tool, what a call with these arguments moves and touches, read on the databases before and
   * after the episode (the amounts it moved are the record's new payments). @default none
   */
  readonly writes?: Readonly<Record<string, (args: Readonly<Record<string, unknown>>, before: unknown, after: unknown) => WriteMeaning | undefined>>;
  /** How a required figure may be derived from the figures the agent was shown. @default sums of 3, differences, multiples to 9 */
  readonly arithmetic?: FigureArithmetic;
}

/** "Ada Lovelace King" as the `{ first, last }` a name lookup takes, for a world's `lookups`. */
export function nameParts(name = ''): { first: string; last: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { first, last: rest.join(' ') };
}
