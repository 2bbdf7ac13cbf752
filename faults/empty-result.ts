import { z } from 'zod';
import type { PersistentFaultKind } from '../src/core/faults.js';

const params = z.object({});

/**
 * A read returns nothing for the whole episode, as from a lagging replica or an empty search index:
 * lists come back empty and records that exist answer 404.
 */
export const emptyResult: PersistentFaultKind<typeof params> = {
  id: 'empty-result',
  description: 'a read tool returns nothing for the episode: empty lists, 404 for records that exist',
  scope: 'persistent',
  touches: ['body', 'status'],
  appliesTo: 'read',
  params,
  variant: () => 'empty',
  transform(response) {
    if (response.status < 200 || response.status >= 300) return response;
    const body = response.body;
    if (Array.isArray(body)) return { status: response.status, body: [] };
    // A list response ({ orders: [...] }) comes back empty; a record is not found.
    const entries = body !== null && typeof body === 'object' ? Object.entries(body) : [];
    if (entries.length === 1 && Array.isArray(entries[0]?.[1])) {
      return { status: response.status, body: { [entries[0]?.[0] ?? 'items']: [] } };
    }
    return { status: 404, body: { error: 'not_found', message: 'No matching record.' } };
  },
};
