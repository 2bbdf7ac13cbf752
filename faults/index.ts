import type { FaultKind, FaultProfile } from '../src/ground/faults.js';
import { unknownId } from '../src/ground/errors.js';
import { timeout } from './timeout.js';
import { rateLimit } from './rate-limit.js';
import { serverError } from './server-error.js';
import { connectionReset } from './connection-reset.js';
import { truncatedBody } from './truncated-body.js';
import { latencySpike } from './latency-spike.js';
import { schemaDrift } from './schema-drift.js';
import { emptyResult } from './empty-result.js';
import { silentWrite } from './silent-write.js';
import { staleRead } from './stale-read.js';
import { wrongValue } from './wrong-value.js';
import { partialCommit } from './partial-commit.js';
import { profiles } from './profiles.js';

/** Every fault kind, in a fixed order (the order matters for seeded decisions). The last four lie: they answer 200 with something untrue. */
export const faultKinds: readonly FaultKind[] = [timeout, rateLimit, serverError, connectionReset, truncatedBody, latencySpike, schemaDrift, emptyResult, silentWrite, staleRead, wrongValue, partialCommit] as readonly FaultKind[];

export { profiles as faultProfiles };
export { connectionResetError } from './connection-reset.js';

/** A fault profile by id; an unknown id lists the valid ones. */
export function getFaultProfile(id: string): FaultProfile {
  const p = profiles.find((x) => x.id === id);
  if (!p) throw unknownId('fault profile', id, profiles.map((x) => x.id));
  return p;
}

/** A fault kind by id; an unknown id lists the valid ones. */
export function getFaultKind(id: string): FaultKind {
  const k = faultKinds.find((x) => x.id === id);
  if (!k) throw unknownId('fault kind', id, faultKinds.map((x) => x.id));
  return k;
}
