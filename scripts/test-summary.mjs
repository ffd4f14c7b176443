// Prints the one summary line CI reads: "N passed, N failed", from vitest JSON reports.
// Usage: node scripts/test-summary.mjs --report <file> --status <exit status> [--report … --status …] [--failed-checks N]
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const suites = [];
let failedChecks = 0;
for (let index = 0; index < args.length; index += 2) {
  const [flag, value] = [args[index], args[index + 1]];
  if (flag === '--report') suites.push({ report: value, status: 0 });
  else if (flag === '--status') suites[suites.length - 1].status = Number(value);
  else if (flag === '--failed-checks') failedChecks = Number(value);
}

let passed = 0;
let failed = failedChecks;
for (const { report, status } of suites) {
  let suiteFailed = 0;
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests ?? 0;
    suiteFailed = (json.numFailedTests ?? 0) + (json.numFailedTestSuites ?? 0);
  }
  if (status !== 0 && suiteFailed === 0) suiteFailed = 1; // the suite failed before or outside vitest
  failed += suiteFailed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
