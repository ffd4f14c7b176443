/** Lines of one failure, as each runner prints it where it happens (verbose/inline reporters). */
export const FAILING_TEST_LINES: Readonly<Record<'vitest' | 'pytest' | 'go', readonly string[]>>;
/** The report of that failure each runner prints at the end, before its summary. */
export const FAILURE_REPORTS: Readonly<Record<'vitest' | 'pytest', readonly string[]>>;
/** A long test-runner log with one failing test in the middle. */
export function makeTestLog(kind: 'vitest' | 'pytest' | 'go', bytes: number): { text: string; failingLines: string[] };
