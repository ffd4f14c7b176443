/**
 * Recordings that do not parse right today, each with the numbered classes of issue 23 whose fix
 * makes it pass (`items`; empty for a class the issue does not list yet). Their replay runs as
 * `it.fails` and stays out of the cut-point property: when the fixes land, the test "fails" by
 * passing, and the entry is removed here.
 */
export const knownFailures: ReadonlyMap<string, { items: readonly number[]; note: string }> = new Map<string, { items: readonly number[]; note: string }>([
]);
