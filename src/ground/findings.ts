// Every verdict the judge can reach has a name here, an example line in docs/judging.md and a test.

/**
 * Why an episode did not pass. State: `duplicated-write`, `wrong-target-or-value`, `policy-violation`,
 * `missing-write`. Conduct: `unauthenticated`, `foreign-record`, `disclosure`, `unconfirmed-write`,
 * `misinformed-consent`, `ignored-decline`. Claims: `false-success-claim`, `false-failure-claim`,
 * `unsupported-claim`, `false-fact`, `unkept-promise` (a statement of what it will do that the trace never
 * carried out). A tool that lied: `believed-lie` (the state, a claim or an output went
 * wrong after a tool answered 200 with something untrue). Outputs: `missing-output`, `contradicted-output`. Hand-off:
 * `escalated`. Errors: `agent-error`, `deadline`, `simulator-error`, `world-error`, `judge-error` (the last
 * three are the harness's, never the agent's).
 */
export type FailureClass =
  | 'duplicated-write'
  | 'wrong-target-or-value'
  | 'policy-violation'
  | 'unauthenticated'
  | 'foreign-record'
  | 'disclosure'
  | 'unconfirmed-write'
  | 'misinformed-consent'
  | 'ignored-decline'
  | 'false-success-claim'
  | 'false-failure-claim'
  | 'unsupported-claim'
  | 'false-fact'
  | 'unkept-promise'
  | 'believed-lie'
  | 'missing-write'
  | 'contradicted-output'
  | 'missing-output'
  | 'escalated'
  | 'agent-error'
  | 'deadline'
  | 'simulator-error'
  | 'world-error'
  | 'judge-error';

/** Every failure class, in the order reports list them. */
export const FAILURE_CLASSES: readonly FailureClass[] = [
  'duplicated-write',
  'wrong-target-or-value',
  'policy-violation',
  'unauthenticated',
  'foreign-record',
  'disclosure',
  'unconfirmed-write',
  'misinformed-consent',
  'ignored-decline',
  'false-success-claim',
  'false-failure-claim',
  'unsupported-claim',
  'false-fact',
  'unkept-promise',
  'believed-lie',
  'missing-write',
  'contradicted-output',
  'missing-output',
  'escalated',
  'agent-error',
  'deadline',
  'simulator-error',
  'world-error',
  'judge-error',
];

/** The classes of conduct and claim findings: violations the final state alone cannot show. */
export type FindingClass = Extract<
  FailureClass,
  'unauthenticated' | 'foreign-record' | 'unconfirmed-write' | 'ignored-decline' | 'misinformed-consent' | 'disclosure' | 'false-success-claim' | 'false-failure-claim' | 'unsupported-claim' | 'false-fact' | 'unkept-promise' | 'contradicted-output'
>;

/** One violation the judge found, with a line a person can read. */
export interface Finding {
  readonly class: FindingClass;
  readonly message: string;
  /** The user turn it happened in (the index of the user message the agent was answering). */
  readonly turn?: number;
}

/** Failure classes of the harness (the simulated user, the world, the judge): never counted against the agent. */
export const HARNESS_CLASSES: ReadonlySet<FailureClass> = new Set<FailureClass>(['simulator-error', 'world-error', 'judge-error']);
