import { z } from 'zod';
import type { RequestHandler } from 'msw';
import type { EpisodeClock } from './clock.js';
import type { JudgingRules } from './judging.js';

/**
 * How the engine recognises an entity in text, after any reformatting a family may do:
 * `id` ignores case, `#`, spaces and hyphens; `email`, `name` and `text` ignore case (and `text`
 * runs of spaces); `amount` compares numbers (`$12.50` = `12.5 dollars`); `date` compares calendar
 * days; `digits` and `verbatim` must appear exactly.
 */
export type EntityFormat = 'id' | 'email' | 'name' | 'text' | 'amount' | 'date' | 'digits' | 'verbatim';

/**
 * Marks a schema node as volatile: generated ids and timestamps that the comparator leaves out of the
 * canonical form (DESIGN decision 8).
 */
export const volatileFields = z.registry<{ volatile: true }>();

/** Declares a field volatile and returns the same schema, for use inside a world's database schema. */
export function volatile<T extends z.ZodType>(schema: T): T {
  volatileFields.add(schema, { volatile: true });
  return schema;
}

/** One tool of a world's API, as an agent sees it. */
export interface ToolSpec {
  /** Stable name, e.g. `cancel_order`. Fault schedules are keyed by it. */
  readonly name: string;
  readonly description: string;
  readonly method: 'GET' | 'POST';
  /** Path below the base URL with `{param}` placeholders, e.g. `/orders/{orderId}/cancel`. */
  readonly path: string;
  /** The arguments: path parameters, then the query (GET) or JSON body (POST). */
  readonly input: z.ZodObject;
  /** Whether the tool changes the database. Writes honour `Idempotency-Key`. */
  readonly write: boolean;
  /**
   * A write that moves money (a refund, a charge, a top-up, a certificate): the world's policy for a
   * client that cannot trust a success answer (the `verify` strategy reads back after these). @default false
   */
  readonly money?: boolean;
  /** The shape of a successful response; schema drift derives its changes from it (enums, optional fields, amounts). */
  readonly output?: z.ZodType;
}

/** A tool spec in the JSON form handed to agents (JSON Schema for the input). */
export interface ToolSpecJson {
  readonly name: string;
  readonly description: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly write: boolean;
  /** A write that moves money. */
  readonly money?: boolean;
  readonly inputSchema: Record<string, unknown>;
  /** The shape of a successful answer as JSON Schema, when the world declares it (faults may drift it). */
  readonly outputSchema?: Record<string, unknown>;
}

/** The JSON form of a tool spec, with its input as JSON Schema, as handed to agents. */
export function toolSpecJson(spec: ToolSpec): ToolSpecJson {
  return {
    name: spec.name,
    description: spec.description,
    method: spec.method,
    path: spec.path,
    write: spec.write,
    ...(spec.money ? { money: true } : {}),
    inputSchema: z.toJSONSchema(spec.input) as Record<string, unknown>,
    ...(spec.output ? { outputSchema: z.toJSONSchema(spec.output, { unrepresentable: 'any', io: 'output' }) as Record<string, unknown> } : {}),
  };
}

/** The mutable state of one episode's world. Nothing in it is shared with another episode. */
export interface WorldInstance<DB> {
  readonly episodeId: string;
  db: DB;
  readonly clock: EpisodeClock;
  /** Counter for ids the API generates (refund ids, ...); volatile in the schema. */
  nextId(prefix: string): string;
}

/** How the user simulator speaks for a world: see src/user/ and docs/user.md. */
export interface UserLanguage {
  /** Opening phrasings per intent; `{slot}` placeholders are filled from the request. */
  readonly intents: Readonly<Record<string, readonly string[]>>;
  /** Per slot: patterns that recognise the agent asking for it, and phrasings of the answer. */
  readonly slots: Readonly<Record<string, SlotLanguage>>;
  /** Identity alternatives: the user answers any identity question with the one the profile prefers. */
  readonly identity: Readonly<Record<string, readonly string[]>>;
  /** Patterns that recognise the agent asking who the user is. */
  readonly identityAsked: readonly RegExp[];
  /**
   * Per identity alternative, patterns that recognise the agent asking for that one ("your e-mail
   * address"): the user gives the alternative asked for, when the agent names exactly one. @default {}
   */
  readonly identityKindAsked?: Readonly<Record<string, readonly RegExp[]>>;
  /** Patterns that recognise the agent asking for a go-ahead. */
  readonly confirmAsked: readonly RegExp[];
  /** Patterns that recognise the agent asking what the user wants; the user restates the request. */
  readonly helpAsked: readonly RegExp[];
  /** Patterns that recognise "anything else?", which is no question about the current request. */
  readonly anythingElse: readonly RegExp[];
  /** Entity ids (e.g. order ids) the user checks in a confirmation; a `g` regex. */
  readonly entityPattern: RegExp;
  /** Slots whose value must match the entity the agent proposes to act on. */
  readonly confirmSlots: readonly string[];
  /**
   * Per intent whose request changes something, patterns that recognise an agent proposing that change
   * ("I'll cancel", "the cancellation of"), in the base form or as a noun, so that a fact told in the
   * past ("the flight was cancelled") is no proposal. The user accepts a go-ahead only for a change one of
   * its requests wants: a proposal of another intent's change alone, or none of its own where its intent
   * has patterns, is declined. @default {} (every go-ahead on the right record is accepted)
   */
  readonly proposals?: Readonly<Record<string, readonly RegExp[]>>;
  /**
   * The intents of `proposals` that a change spoken of only as a modification can be ("shall I proceed with
   * the modification?"): a user whose open requests are none of them declines such a go-ahead. @default []
   * (a modification named alone is read as any other change without a name)
   */
  readonly modifying?: readonly string[];
  /**
   * The intents of `proposals` whose change never charges the user (a cancellation, a return, an address
   * changed; not compensation, whose money comes to the user as "an extra $100"): a user whose open requests
   * are only these, or ask nothing changed, declines a go-ahead that names none of its changes and tells a new
   * cost ("for an extra $120", "to be charged to your card: $24"), and says neither yes nor no to its own
   * change with a new cost in the go-ahead's words or a plan's step (docs/user.md). @default [] (a charge says
   * nothing of which change is proposed)
   */
  readonly payless?: readonly string[];
  /**
   * Per intent of `proposals`, the intents a user may take it for (a person's default address, for a user who wants an order's
   * address changed): to a user with one of those open, a go-ahead for it alone is neither yes nor no; it says what it wants.
   * To any other user it is another change, declined. @default {}
   */
  readonly akin?: Readonly<Record<string, readonly string[]>>;
  /**
   * Offers no request of this world ever wants (a transfer to a person, an upgrade, insurance); a go-ahead
   * that makes one is declined. Added to the simulator's own list (src/user/scripted.ts). @default []
   */
  readonly unsolicited?: readonly RegExp[];
  /** The world's material for the perturbation families (ε); without it, families that need it do nothing. */
  readonly perturbation?: PerturbationLanguage;
}

/**
 * What the perturbation families draw on in a world. Everything here must leave the user's goal as it
 * is: synonyms that mean the same in this world, paraphrases that ask for the same thing, asides that
 * name no entity.
 */
export interface PerturbationLanguage {
  /** Entity format per slot (how the engine recognises it after reformatting). A slot not listed is `verbatim`. */
  readonly entityFormats: Readonly<Record<string, EntityFormat>>;
  /** Words and phrases with alternatives that mean the same in this world: `{ cancel: ['call off'] }`. */
  readonly lexicon: Readonly<Record<string, readonly string[]>>;
  /** Whole-request paraphrases per intent, direct and indirect; `{slot}` placeholders as in `intents`. */
  readonly paraphrases: Readonly<Record<string, readonly string[]>>;
  /** Plausible, irrelevant sentences that name no entity and no preference. */
  readonly distractors: readonly string[];
  /** Back-story sentences per intent (`*` for any), for verbose users; they name no entity and no preference. */
  readonly stories: Readonly<Record<string, readonly string[]>>;
  /** Terms that would name a competing entity (products, payment methods); a family may not add one. */
  readonly competing: readonly string[];
}

export interface SlotLanguage {
  readonly asked: readonly RegExp[];
  readonly answers: readonly string[];
  /**
   * The policy has a default for this detail, so an agent need not ask for it; a user never holds it
   * back, since an agent that goes with the default would do something else than the user wants.
   * @default false
   */
  readonly optional?: boolean;
}

/** A world: a domain with a typed database, a seeded generator, a tool API and a policy. */
export interface WorldDefinition<DB = unknown, Setup = unknown> {
  readonly id: string;
  readonly description: string;
  /** Schema of the database; volatile fields are marked with `volatile()`. */
  readonly dbSchema: z.ZodType<DB>;
  /** Generates the base database for a seed. Deterministic: same seed, same database. */
  generate(seed: string): DB;
  /** Schema of a scenario's `setup` block. */
  readonly setupSchema: z.ZodType<Setup>;
  /** Adds a scenario's entities to a copy of the base database; throws on a conflict. */
  applySetup(db: DB, setup: Setup): void;
  readonly tools: readonly ToolSpec[];
  /** The msw handlers; `instance(request)` finds the episode's world from the request's host. */
  handlers(instance: (request: Request) => WorldInstance<DB>): RequestHandler[];
  /** The policy text handed to agents. */
  readonly policy: string;
  readonly userLanguage: UserLanguage;
  /**
   * Copies a database. Without it, an episode's database is an overlay that copies the entries of its
   * collections (top-level records) on first read and is compared entry by entry (src/ground/overlay.ts);
   * a world that supplies `clone` gets its own whole copy per episode, compared whole.
   */
  clone?(db: DB): DB;
  /**
   * A world whose state lives outside the process (a real MCP server, a running service): the database
   * the engine hands around is a handle (`clone` gives a fresh one per episode), `state` reads the state
   * the comparator judges (plain JSON, shaped by `dbSchema`) after an episode's calls and after the gold's,
   * and `release` ends the handle (stops the server). Tools that lie cannot copy such a state: they tell
   * the truth (docs/your-tools.md).
   */
  /** Its episodes share one outside state (a running service): a sweep runs them one at a time, without worker threads. */
  readonly exclusive?: boolean;
  readonly live?: {
    state(db: DB): Promise<unknown>;
    release?(db: DB): Promise<void>;
  };
  /**
   * Scenario categories this world adds to the shared ones (`read`, `multi-step`, `missing-info`,
   * `ambiguous`, `refusal`), usually its kinds of write: `cancel`, `exchange`, ... @default []
   */
  readonly categories?: readonly string[];
  /**
   * The folder of the world's scenario files. A built-in world's is `scenarios/<id>/tasks/`; a world
   * loaded from a module defaults to `tasks/` beside the module.
   */
  readonly scenarioDir?: string;
  /**
   * What the judge checks beyond the final state: conduct rules (identification, ownership,
   * confirmation) and claim wording, as data (docs/judging.md). Without it, only state, claims in the
   * engine's wording and outputs are judged.
   */
  readonly judging?: JudgingRules;
}

/** Identity helper that types a world definition, for worlds in user modules (see docs/worlds.md). */
export function defineWorld<DB, Setup>(world: WorldDefinition<DB, Setup>): WorldDefinition<DB, Setup> {
  return world;
}
