// Prints the one summary line CI reads: "N passed, N failed", from vitest's JSON report.
// Usage: node scripts/test-summary.mjs <report.json> <test exit status> <failed extra checks>
import { existsSync, readFileSync } from 'node:fs';

const [reportPath = '.vitest-results.json', statusText = '0', checksText = '0'] = process.argv.slice(2);
const status = Number(statusText);
const failedChecks = Number(checksText);

let passed = 0;
let failed = 0;
if (existsSync(reportPath)) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
}
if (status !== 0 && failed === 0) failed = 1; // the test command failed before or outside vitest
failed += failedChecks;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
