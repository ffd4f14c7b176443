import { describe, expect, it } from 'vitest';
import { parseVfsCliArgs, VfsCliUsageError } from './parse-vfs-cli-args.js';

describe('parseVfsCliArgs', () => {
  it('parses commands, positionals and flags in both spellings', () => {
    expect(parseVfsCliArgs(['list', '/docs', '--depth', '2', '--limit=7', '--json', '--root', 'ws'])).toEqual({
      command: 'list',
      positionals: ['/docs'],
      json: true,
      depth: 2,
      limit: 7,
      root: 'ws',
    });
    expect(parseVfsCliArgs(['search', 'two', 'words', '--provider=github'])).toEqual({
      command: 'search',
      positionals: ['two', 'words'],
      json: false,
      provider: 'github',
    });
    expect(parseVfsCliArgs(['read', 'a.md', '--max-bytes', '10'])).toMatchObject({ maxBytes: 10 });
  });

  it('treats everything after -- as positionals', () => {
    expect(parseVfsCliArgs(['search', '--', '--json', '-x'])).toMatchObject({ positionals: ['--json', '-x'], json: false });
  });

  it.each([[[]], [['help']], [['--help']], [['-h']], [['list', '--help']]])('asks for help with %j', (argv) => {
    expect(parseVfsCliArgs(argv).command).toBe('help');
  });

  it.each([
    [['list', '--depth', '5x'], '--depth must be a positive integer; got "5x"'],
    [['list', '--depth', '1.5'], 'got "1.5"'],
    [['list', '--limit=0'], 'got "0"'],
    [['list', '--limit', '-3'], 'got "-3"'],
    [['list', '--limit', '07'], 'got "07"'],
    [['list', '--limit', ' 5'], 'got " 5"'],
    [['list', '--limit', '1e3'], 'got "1e3"'],
    [['list', '--limit', '99999999999999999999'], 'positive integer'],
    [['list', '--depth'], '--depth needs a value'],
    [['list', '--depth', '--json'], '--depth needs a value'],
    [['list', '--frobnicate'], 'Unknown option --frobnicate'],
    [['list', '-x'], 'Unknown option -x'],
    [['list', '--json=yes'], '--json takes no value'],
    [['list', '--limit', '1', '--limit', '2'], 'given twice'],
    [['list', 'a', 'b'], 'at most 1'],
    [['read'], 'read needs an argument'],
    [['stat', 'a', 'b'], 'at most 1'],
    [['read', 'a', '--depth', '2'], 'read does not take --depth'],
    [['stat', 'a', '--limit', '2'], 'stat does not take --limit'],
    [['copy', 'a'], 'Unknown command "copy"'],
    [['search', 'x', '--provider='], '--provider must not be empty'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseVfsCliArgs(argv)).toThrow(VfsCliUsageError);
    expect(() => parseVfsCliArgs(argv)).toThrow(message);
  });
});
