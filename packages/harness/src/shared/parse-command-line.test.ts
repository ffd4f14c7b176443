// The command-line reader of `agent-assistant` and `agent-assistant-worker`, over Node's own
// `parseArgs`: what it reads, and every refusal with the message a user sees.
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseCommandLine, type CommandLineFlag } from './parse-command-line.js';

const FLAGS = new Map<string, CommandLineFlag>([
  ['workspace', { takesValue: true, placeholder: 'DIR' }],
  ['prompt', { takesValue: true, placeholder: 'TEXT' }],
  ['require-approval', { takesValue: true, placeholder: 'TOOL', repeat: true }],
  ['json', { takesValue: false }],
]);

const parse = (argv: string[]) => parseCommandLine(parseArgs, argv, FLAGS, 'tool run');
const refusal = (argv: string[]) => {
  const result = parse(argv);
  if (result.ok) throw new Error(`accepted ${JSON.stringify(argv)}`);
  return result;
};

describe('parseCommandLine', () => {
  it('reads both value forms, switches, repeats in order, -h and --help', () => {
    const result = parse(['--workspace', 'ws', '--prompt=a=b', '--require-approval', 'x', '--json', '--require-approval=y', '-h']);
    expect(result).toEqual({
      ok: true,
      help: true,
      values: new Map([
        ['workspace', ['ws']],
        ['prompt', ['a=b']],
        ['require-approval', ['x', 'y']],
        ['json', ['true']],
      ]),
    });
    expect(parse(['--help'])).toMatchObject({ ok: true, help: true });
    expect(parse([])).toEqual({ ok: true, help: false, values: new Map() });
  });

  it('takes a value that starts with one dash, "--" itself, and an empty or dashed value after "="', () => {
    expect(parse(['--prompt', '-5'])).toMatchObject({ values: new Map([['prompt', ['-5']]]) });
    expect(parse(['--prompt', '--'])).toMatchObject({ values: new Map([['prompt', ['--']]]) });
    expect(parse(['--prompt=--json'])).toMatchObject({ values: new Map([['prompt', ['--json']]]) });
    expect(parse(['--prompt='])).toMatchObject({ values: new Map([['prompt', ['']]]) });
  });

  it.each([
    [['--worksapce', 'ws'], 'argv', 'Unknown argument "--worksapce" for `tool run`. Did you mean --workspace? See `tool run --help`.'],
    [['--Workspace=ws'], 'argv', 'Unknown argument "--Workspace=ws" for `tool run`. Did you mean --workspace? See `tool run --help`.'],
    [['-prompt', 'hi'], 'argv', 'Unknown argument "-prompt" for `tool run`. Did you mean --prompt? See `tool run --help`.'],
    [['-hjson'], 'argv', 'Unknown argument "-hjson" for `tool run`. Did you mean --json? See `tool run --help`.'],
    [['--bogus'], 'argv', 'Unknown argument "--bogus" for `tool run`. See `tool run --help`.'],
    [['stray'], 'argv', 'Unknown argument "stray" for `tool run`. See `tool run --help`.'],
    [['--', '--json'], 'argv', 'Unknown argument "--" for `tool run`. See `tool run --help`.'],
    [['--__proto__', 'x'], 'argv', 'Unknown argument "--__proto__" for `tool run`. See `tool run --help`.'],
    [['--constructor=1'], 'argv', 'Unknown argument "--constructor=1" for `tool run`. See `tool run --help`.'],
    [['--help=yes'], 'argv', 'Unknown argument "--help=yes" for `tool run`. See `tool run --help`.'],
    [['--workspace'], 'workspace', '--workspace needs a value (DIR).'],
    [['--workspace', '--json'], 'workspace', '--workspace needs a value (DIR).'],
    [['--json=false'], 'json', '--json takes no value.'],
    [['--json', '--json'], 'json', '--json is given twice; give it once.'],
    [['--prompt', 'a', '--prompt=b'], 'prompt', '--prompt is given twice; give it once.'],
  ])('refuses %j', (argv, field, message) => {
    expect(refusal(argv)).toEqual({ ok: false, field, message });
  });

  it('quotes at most 80 characters of an unknown argument and matches no flag for a long one', () => {
    const { message } = refusal([`--${'x'.repeat(5000)}`]);
    expect(message).toBe(`Unknown argument ${JSON.stringify(`--${'x'.repeat(78)}`)} for \`tool run\`. See \`tool run --help\`.`);
  });
});
