/** Text helpers for the scripted reference agents. */

// Rows of the distance table, reused across calls (they only grow): the reading of every user message
// computes thousands of short distances, and fresh arrays per row were most of their cost.
let rowA = new Int32Array(32);
let rowB = new Int32Array(32);
let rowC = new Int32Array(32);

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions); `max + 1` once it exceeds `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rowA.length <= n) {
    rowA = new Int32Array(2 * (n + 1));
    rowB = new Int32Array(2 * (n + 1));
    rowC = new Int32Array(2 * (n + 1));
  }
  // prev2: row i-2, prev: row i-1, cur: row i.
  let prev2 = rowA;
  let prev = rowB;
  let cur = rowC;
  prev2.fill(0, 0, n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj) v = Math.min(v, (prev2[j - 2] as number) + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
    if (rowMin > max) return max + 1;
  }
  return prev[n] as number;
}

const money = (n: number) => `$${n.toFixed(2)}`;
export { money };
