// The command-line reader over Node's own `parseArgs`, on any argv: it never throws (every
// refusal is a result with a message), and a well-formed command line reads back as written.
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import { parseCommandLine, type CommandLineFlag } from './parse-command-line.js';

const FLAGS = new Map<string, CommandLineFlag>([
  ['workspace', { takesValue: true }],
  ['require-approval', { takesValue: true, repeat: true }],
  ['json', { takesValue: false }],
]);
const parse = (argv: string[]) => parseCommandLine(parseArgs, argv, FLAGS, 'tool');

const pieces = ['--', '-', '-h', '--help', '--json', '--json=', '--workspace', '--workspace=', '--require-approval', '--__proto__', '--constructor', '-x', '=', ''];
const argArb = fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 12 }));

describe('parseCommandLine (property)', () => {
  it('never throws: any argv is read or refused with a message naming the program', () => {
    fc.assert(
      fc.property(fc.array(argArb, { maxLength: 8 }), (argv) => {
        const result = parse(argv);
        if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
        else for (const values of result.values.values()) expect(values.length).toBeGreaterThan(0);
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('reads a well-formed command line back as written, in order', () => {
    const valueArb = fc.string({ maxLength: 10 }).filter((value) => !value.startsWith('--') || value === '--');
    const lineArb = fc.record({
      workspace: fc.option(valueArb, { nil: undefined }),
      approvals: fc.array(valueArb, { maxLength: 4 }),
      json: fc.boolean(),
      inline: fc.boolean(),
    });
    fc.assert(
      fc.property(lineArb, ({ workspace, approvals, json, inline }) => {
        const pair = (name: string, value: string) => (inline ? [`--${name}=${value}`] : [`--${name}`, value]);
        const argv = [
          ...(workspace === undefined ? [] : pair('workspace', workspace)),
          ...approvals.flatMap((value) => pair('require-approval', value)),
          ...(json ? ['--json'] : []),
        ];
        const expected = new Map<string, string[]>();
        if (workspace !== undefined) expected.set('workspace', [workspace]);
        if (approvals.length > 0) expected.set('require-approval', approvals);
        if (json) expected.set('json', ['true']);
        expect(parse(argv)).toEqual({ ok: true, help: false, values: expected });
      }),
      { numRuns: propertyRuns() },
    );
  });
});
