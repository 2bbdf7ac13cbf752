/** How a generated task's id names its family (src/run/families.ts): `TEMPLATE--vN`. */

/** The suffix of a generated variant: `TEMPLATE--vN`. */
export const VARIANT_SUFFIX = /--v(\d+)$/;

/** The family a task belongs to: its template's id (a hand-written task is its own family's template). */
export const familyOf = (taskId: string): string => taskId.replace(VARIANT_SUFFIX, '');
