/** Names longer than this are never matched (a typo is short; outside text may be any length). */
const MAX_NAME_LENGTH = 100;

/**
 * The known name closest to `name` by edit distance (insertions, deletions, substitutions and
 * swaps of two neighbours), when it is at most `maxDistance` away; `undefined` otherwise. Ties go
 * to the name listed first.
 */
export function closestName(name: string, known: Iterable<string>, maxDistance = 2): string | undefined {
  if (name.length > MAX_NAME_LENGTH) return undefined;
  let best: string | undefined;
  let bestDistance = maxDistance + 1;
  for (const candidate of known) {
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance between `a` and `b` (UTF-16 units). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(distance);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}
