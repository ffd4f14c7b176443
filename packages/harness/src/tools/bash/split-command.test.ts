import { describe, expect, it } from 'vitest';
import { splitCommand } from './split-command.js';

describe('splitCommand', () => {
  it.each([
    ['git status', ['git', 'status']],
    ['  ls   -la\tsrc ', ['ls', '-la', 'src']],
    [`printf '%s,' 'a b' "c d" e''f ""`, ['printf', '%s,', 'a b', 'c d', 'ef', '']],
    [`grep -r 'a*b?' "[x]" --include='*.ts'`, ['grep', '-r', 'a*b?', '[x]', '--include=*.ts']],
    ['git log HEAD~1 --format=%H', ['git', 'log', 'HEAD~1', '--format=%H']],
  ])('splits %s', (command, argv) => {
    expect(splitCommand(command)).toEqual({ ok: true, argv });
  });

  it.each([
    'ls; rm -rf /',
    'ls | sh',
    'ls && rm x',
    'cat < /etc/passwd',
    'echo > out',
    'echo $HOME',
    "echo '$HOME'",
    'echo `id`',
    'ls\nrm x',
    'ls\rrm x',
    'ls *.ts',
    'ls a\\ b',
    'ls ~',
    'ls # comment',
    'ls (x)',
    'ls {a,b}',
    "echo 'open",
    '   ',
  ])('refuses %j', (command) => {
    expect(splitCommand(command).ok).toBe(false);
  });
});
