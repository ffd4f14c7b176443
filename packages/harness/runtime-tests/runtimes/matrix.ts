// Collects which scenario passed in which runtime during a run, and writes it as the Markdown
// tables docs/runtimes.md shows (.matrix.md beside this file; one file per test file's process).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';

type Kind = 'scenario' | 'resume';
const cells = new Map<string, boolean>();
const rows = new Map<Kind, string[]>([
  ['scenario', []],
  ['resume', []],
]);

/** Records `row` × `column` as passed or failed once the current test (`context`) has finished. */
export function recordWhenFinished(context: TestContext, kind: Kind, row: string, column: string): void {
  context.onTestFinished(({ task }) => recordCell(kind, row, column, task.result?.state === 'pass'));
}

/** Records that `row` (a scenario, or the runtime a continuation was paused in) passed or failed in `column` (a runtime). */
export function recordCell(kind: Kind, row: string, column: string, pass: boolean): void {
  const list = rows.get(kind)!;
  if (!list.includes(row)) list.push(row);
  cells.set(JSON.stringify([kind, row, column]), pass);
}

function table(kind: Kind, corner: string, columns: readonly string[]): string {
  const lines = [`| ${corner} | ${columns.join(' | ')} |`, `|---|${columns.map(() => '---').join('|')}|`];
  for (const row of rows.get(kind)!) {
    const marks = columns.map((column) => {
      const pass = cells.get(JSON.stringify([kind, row, column]));
      return pass === undefined ? '—' : pass ? '✓' : '✗';
    });
    lines.push(`| ${row} | ${marks.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** Writes `.matrix.md` (`name` names the file: `.matrix-<name>.md`) and returns its text. */
export function writeMatrix(name: string, columns: readonly string[], versions: ReadonlyMap<string, string>): string {
  const resumes = [...cells].filter(([key]) => key.startsWith('["resume"'));
  const text = [
    ...(versions.size === 0 ? [] : [`Versions: ${columns.map((column) => `${column} ${versions.get(column) ?? '?'}`).join(', ')}.`, '']),
    table('scenario', 'scenario', columns),
    ...(resumes.length === 0
      ? []
      : [
          '',
          `Cross-resume (row: paused in; column: resumed in): ${resumes.filter(([, pass]) => pass).length} of ${resumes.length} pairs pass.`,
          '',
          table('resume', 'paused in ↓ / resumed in →', columns),
        ]),
    '',
  ].join('\n');
  writeFileSync(fileURLToPath(new URL(`./.matrix-${name}.md`, import.meta.url)), text);
  return text;
}
