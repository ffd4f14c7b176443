// The resume command printed after a paused turn, pasted into real shells: every model-chosen id
// comes out as the literal argument (or the `ID` placeholder when a terminal cannot show it), and
// nothing in it is expanded or run (issue 22, CLI 2).
import { spawnSync } from 'node:child_process';
import { chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { HarnessContinuation } from '../../core/types/continuation.js';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { cleanupTempDirs, tempDir } from '../../local/__fixtures__/test-helpers.js';
import { resumeHint } from './resume-hint.js';
import { terminalText } from './terminal-text.js';

const SHELL_SNIPPETS = ["'", '"', '\\', '$(touch PWNED)', '`touch PWNED`', ';touch${IFS}PWNED', '&&', '|', '>PWNED', '<', '(', ')', '{a,b}', '~', '#', '!', '*', '?', '$IFS', '=', '%', ' ', '\t', '\n', '--', '-', '\u001b[31m', '\u009b', '\u202e', '\ud800', '\u0000'];
const idArb = fc.oneof(
  fc.array(fc.constantFrom(...SHELL_SNIPPETS, 'call_1', 'x'), { maxLength: 6 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ maxLength: 240 }),
);
const pathArb = fc.string({ unit: fc.constantFrom('a', '/', ' ', "'", '$', '`', ';', 'é', '\n', '*'), maxLength: 20 }).map((rest) => `/tmp/${rest}`);

const shells = ['sh', 'bash', 'zsh'].filter((shell) => spawnSync(shell, ['-c', 'true']).status === 0);
const bin = tempDir('resume-hint-bin-');
// Stands in for the program: prints each argument it got, NUL-terminated.
writeFileSync(join(bin, 'agent-assistant'), "#!/bin/sh\nprintf '%s\\0' \"$@\"\n");
chmodSync(join(bin, 'agent-assistant'), 0o755);

afterAll(() => cleanupTempDirs());

function approval(ids: readonly string[]): HarnessContinuation {
  return {
    version: 1,
    id: 'c',
    type: 'approval',
    turnId: 't',
    createdAt: new Date(0).toISOString(),
    resumeToken: 'r',
    state: { approvals: ids.map((id) => ({ id, toolName: 'workspace_read', summary: 's' })) },
  } as unknown as HarnessContinuation;
}

describe('resumeHint in a real shell', () => {
  it.each(shells)('%s: the pasted line passes every id literally and runs nothing', (shell) => {
    fc.assert(
      fc.property(fc.array(idArb, { minLength: 1, maxLength: 3 }), pathArb, (ids, file) => {
        const lines = resumeHint(file, approval(ids)).map((line) => terminalText(line));
        expect(lines[0]?.startsWith('resume: ')).toBe(true);
        const cwd = tempDir('resume-hint-cwd-');
        const run = spawnSync(shell, ['-c', lines[0]!.slice('resume: '.length)], {
          cwd,
          env: { PATH: `${bin}:/usr/bin:/bin` },
          encoding: 'utf8',
        });
        expect(run.status, run.stderr).toBe(0);
        const shown = (id: string) => id.length <= 200 && terminalText(id) === id && !/\p{Surrogate}/u.test(id);
        expect(run.stdout.split('\0').slice(0, -1)).toEqual([
          'resume',
          '--continuation',
          terminalText(file),
          ...ids.map((id) => `--approve=${shown(id) ? id : 'ID'}`),
        ]);
        expect(readdirSync(cwd)).toEqual([]);
        expect(lines.length).toBe(2 + ids.filter((id) => !shown(id)).length);
      }),
      { numRuns: propertyRuns() },
    );
  });
});
