/**
 * How many cases each fast-check property tries. The default test run keeps it small; the
 * dedicated script (`npm run test:properties`) sets `PROPERTY_RUNS=10000`.
 */
export function propertyRuns(defaultRuns = 200): number {
  const fromEnv = Number(process.env.PROPERTY_RUNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : defaultRuns;
}
