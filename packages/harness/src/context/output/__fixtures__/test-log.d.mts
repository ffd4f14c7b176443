/** A long test-runner log with one failing test in the middle. */
export function makeTestLog(kind: 'vitest' | 'pytest' | 'go', bytes: number): { text: string; failingLines: string[] };
