import { type LineIndex, rawLine, screenLine } from './output-lines.js';

/**
 * What one line of command output is, judged on that line alone:
 * - `pass` — a passing test or a runner's progress (`✓ …`, `PASS …`, `… PASSED`, `--- PASS:`,
 *   `=== RUN`, `ok  pkg 0.1s`, `test x ... ok`, `ok 3 …`): checked first, so a passing test whose
 *   name says "error" is not an error;
 * - `summary` — a runner's totals (`Tests  1 failed | 99 passed`, `=== 1 failed, 99 passed in 2s ===`,
 *   `test result: FAILED.`, `Found 3 errors`, `✖ 2 problems`);
 * - `error` — a failure or an error (`FAIL`, `FAILED`, `AssertionError`, `error:`, `error TS2322`,
 *   `panicked`, `Traceback`, pytest's `E   …`, `× …`, `● …`, `npm ERR!`, `make: ***`, assertion
 *   diffs' `Expected`/`Received`/`left`/`right`, a non-zero exit status);
 * - `frame` — a place in code: a stack frame (`at f (file:1:2)`, `❯ file:1:2`, `File "x.py", line 3`,
 *   `x.go:12`), a code frame (`  42 | …`, `     | ^`), a `file:line:col` location;
 * - `warning`;
 * - `other`.
 */
export type LineKind = 'pass' | 'summary' | 'error' | 'frame' | 'warning' | 'other';

const PASS = /* @__PURE__ */ (() =>
  new RegExp(
    [
      String.raw`^\s*[✓✔√]\s`,
      String.raw`^\s*PASS\s`,
      String.raw`\sPASSED(?:\s|$)`,
      String.raw`^\s*(?:--- (?:PASS|SKIP):|=== (?:RUN|PAUSE|CONT|NAME))\s`,
      String.raw`^ok\s+\S+\s+(?:[\d.]+m?s|\(cached\))`,
      String.raw`^test \S.* \.\.\. (?:ok|ignored)$`,
      String.raw`^ok \d+\b`,
    ].join('|'),
  ))();

const SUMMARY = /* @__PURE__ */ (() =>
  new RegExp(
    [
      String.raw`^\s*(?:Test Files|Tests|Test Suites|Snapshots|Suites)\s*:?\s+\d`,
      // pytest's last line: `=== 1 failed, 998 passed, 2 warnings in 3.31s (0:00:03) ===` (no nested `.*`: linear).
      String.raw`^=+ (?:\d+ [a-z]+(?:, \d+ [a-z]+)*|no tests ran) in [\d.]+s(?: \([\d:]+\))? =+$`,
      String.raw`^=+ short test summary info =+$`,
      String.raw`^test result: `,
      String.raw`^Found \d+ errors?\b`,
      String.raw`^\s*[✖×] \d+ problems?\b`,
      String.raw`^\s*\d+ (?:passing|failing|pending)\b`,
    ].join('|'),
  ))();

const ERROR = /* @__PURE__ */ (() =>
  new RegExp(
    [
      String.raw`\b(?:FAIL|FAILED|FAILURES?|ERRORS?|PANIC|FATAL)\b`,
      String.raw`^_{3,} \S.* _{3,}$`,
      String.raw`^\s*--- FAIL:`,
      String.raw`\b[A-Z][A-Za-z]*(?:Error|Exception)\b`,
      String.raw`\b(?:error|Error)(?:\[[A-Z]?\d+\])?(?::|\s+TS\d+)`,
      String.raw`^\s*\d+:\d+\s+error\s`,
      String.raw`\bfail(?:s|ed|ure|ures|ing)?\b`,
      String.raw`\b(?:Fail|Failed|Failure)\b`,
      String.raw`\bpanic(?:ked)?\b`,
      String.raw`^goroutine \d+ \[`,
      String.raw`^Traceback \(most recent call last\)`,
      String.raw`^E {3}`,
      String.raw`^\s*[×✕✗✘]\s`,
      String.raw`^\s*● `,
      String.raw`\bnpm (?:ERR!|error)`,
      String.raw`^\S*make(?:\[\d+\])?: \*\*\*`,
      String.raw`\b(?:fatal|Fatal)\b`,
      String.raw`\b(?:Segmentation fault|core dumped|undefined reference to|Aborted)\b`,
      String.raw`\bassert(?:ion)?\b`,
      String.raw`^\s*(?:Expected|Received|Actual|expected|received|actual)\b[^:]{0,40}:`,
      String.raw`^\s*[-+] (?:Expected|Received)\b`,
      String.raw`^\s*(?:left|right): `,
      String.raw`\bexit(?:ed with)? (?:code|status) [1-9]`,
      String.raw`\breturned [1-9]\d* exit status`,
    ].join('|'),
  ))();

const FRAME = /* @__PURE__ */ (() =>
  new RegExp(
    [
      String.raw`^\s+at\s.*:\d+(?::\d+)?\)?$`,
      String.raw`^\s*❯\s+\S+:\d+`,
      String.raw`^\s*File ".+", line \d+`,
      String.raw`^>\s`,
      String.raw`^\s+\S+\.go:\d+\b`,
      String.raw`^\s*\d+:\s+0x[0-9a-f]+\b`,
      String.raw`^\s*-->\s+\S+:\d+`,
      String.raw`^\s*\d+\s*\|`,
      String.raw`^\s*\|\s*[\^~]`,
      String.raw`^\s*\^[~^]*\s*$`,
      String.raw`^\S+?(?::\d+:\d+|\(\d+,\d+\)):?(?:\s|$)`,
    ].join('|'),
  ))();

const WARNING = /\bwarn(?:ing)?s?\b|\bWARN(?:ING)?\b|\bWarning\b/i;

/** Longest part of a line looked at, so a single huge line costs no more than this. */
const CLASSIFIED_CHARS = 2000;

/** The kind of one line (already as on screen: see `screenLine`). Linear in the line's length. */
export function classifyLine(line: string): LineKind {
  const text = line.length > CLASSIFIED_CHARS ? line.slice(0, CLASSIFIED_CHARS) : line;
  if (text.trim() === '') return 'other';
  if (PASS.test(text)) return 'pass';
  if (SUMMARY.test(text)) return 'summary';
  if (ERROR.test(text)) return 'error';
  if (FRAME.test(text)) return 'frame';
  if (WARNING.test(text)) return 'warning';
  return 'other';
}

/** Ranks, best first: lines of a better rank are kept before any line of a worse one. */
export const RANK = {
  /** Totals, and the last lines of the stream (where runners and compilers put their summary). */
  summary: 0,
  error: 1,
  /** Lines near an error: the test's name before it, the assertion diff and code frame after it. */
  nearError: 2,
  /** Stack frames and warnings away from any error. */
  note: 3,
  /** The first lines of the stream (what ran). */
  head: 4,
  rest: 5,
  /** Passing tests: shown only when all of them fit (otherwise the totals speak for them). */
  passing: 6,
} as const;

/** Lines before an error kept with it. */
const BEFORE_ERROR = 2;
/** Lines after an error kept with it (a diff and a code frame), up to a passing test's line. */
const AFTER_ERROR = 12;
const TAIL_LINES = 6;
const HEAD_LINES = 3;

const ERROR_MARK = 1;
const PASS_MARK = 2;

const RANK_OF_KIND: Record<LineKind, number> = /* @__PURE__ */ (() => ({
  pass: RANK.passing,
  other: RANK.rest,
  summary: RANK.summary,
  error: RANK.error,
  frame: RANK.note,
  warning: RANK.note,
}))();

/** The rank of every line of a stream, in three linear passes. */
export function rankLines(index: LineIndex): Uint8Array {
  const { count } = index;
  // What the windows around errors need to know of each line: 1 an error, 2 a passing test.
  const marks = new Uint8Array(count);
  const ranks = new Uint8Array(count);
  for (let k = 0; k < count; k += 1) {
    const kind = classifyLine(screenLine(rawLine(index, k)));
    marks[k] = kind === 'error' ? ERROR_MARK : kind === 'pass' ? PASS_MARK : 0;
    ranks[k] = RANK_OF_KIND[kind];
  }
  const near = (k: number) => {
    if (ranks[k]! > RANK.nearError) ranks[k] = RANK.nearError;
  };
  for (let k = 0, after = 0; k < count; k += 1) {
    if (marks[k] === ERROR_MARK) after = AFTER_ERROR;
    else if (marks[k] === PASS_MARK) after = 0;
    else if (after > 0) {
      near(k);
      after -= 1;
    }
  }
  for (let k = count - 1, before = 0; k >= 0; k -= 1) {
    if (marks[k] === ERROR_MARK) before = BEFORE_ERROR;
    else if (marks[k] === PASS_MARK) before = 0;
    else if (before > 0) {
      near(k);
      before -= 1;
    }
  }
  for (let k = Math.max(0, count - TAIL_LINES); k < count; k += 1) ranks[k] = RANK.summary;
  for (let k = 0; k < Math.min(HEAD_LINES, count); k += 1) if (ranks[k]! > RANK.head) ranks[k] = RANK.head;
  return ranks;
}
