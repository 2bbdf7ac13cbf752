// The judge: what the rest of Shakedown may use of it. See docs/judging.md.
export { FAILURE_CLASSES, HARNESS_CLASSES, type FailureClass, type Finding, type FindingClass } from '../ground/findings.js';
export { compareState, type StateVerdict } from './state.js';
export { judgeConduct, readAct, Ownership, writeAttempts, type UserTurn } from './conduct.js';
export { CLAIM_LABELS, type ClaimLabel, type ClaimQuestion, type ClaimReader, type ClaimWording } from '../ground/judging.js';
export { DEFAULT_CLAIM_WORDING, mergeWording, readClaim, wordingReader } from './claims.js';
export { readSentence } from './claim-sentence.js';
export { claimChecks, judgeClaims, type ClaimCheck, type TurnMessage } from './claim-checks.js';
export { dataValues, isData, judgeOutputs, revealedIn, type DataValues } from './outputs.js';
export { DEFAULT_AMOUNT_TOPICS } from './text.js';
export { classifyFailure, defaultClaimReader, judgeEpisode, outcomeOf, turnsOf, type Judgement } from './verdict.js';
export type { ConductRules, JudgingRules, PrivateAccess } from '../ground/judging.js';
