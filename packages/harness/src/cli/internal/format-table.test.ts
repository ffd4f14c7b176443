import { describe, expect, it } from 'vitest';
import { displayWidth } from './display-width.js';
import { formatTable } from './format-table.js';

/** The terminal column where each line's last cell starts. */
const lastColumnStarts = (table: string) =>
  table
    .trimEnd()
    .split('\n')
    .map((line) => displayWidth(line.slice(0, line.lastIndexOf('  ') + 2)));

describe('formatTable', () => {
  it('pads columns to the widest cell and escapes control characters', () => {
    expect(formatTable(['name', 'kind'], [['a\nb', 'x'], ['long-name', 'y']])).toBe('name       kind\na\\nb       x\nlong-name  y\n');
  });

  it('pads by terminal columns: CJK and emoji take two, combining marks none', () => {
    const table = formatTable(
      ['name', 'kind'],
      [
        ['日本語', 'cjk'],
        ['🚀🚀', 'emoji'],
        ['👩‍💻', 'zwj'],
        ['e\u0301te\u0301', 'marks'],
        ['ascii-name', 'plain'],
      ],
    );
    expect(table).toBe(
      ['name        kind', '日本語      cjk', '🚀🚀        emoji', '👩‍💻          zwj', 'e\u0301te\u0301         marks', 'ascii-name  plain', ''].join('\n'),
    );
    expect(new Set(lastColumnStarts(table))).toEqual(new Set([12]));
  });

  it('takes any number of rows (no spread into Math.max)', () => {
    const rows = Array.from({ length: 200_000 }, (_, index) => [String(index), 'x']);
    expect(formatTable(['n', 'k'], rows).split('\n')).toHaveLength(200_002);
  });
});

describe('displayWidth', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['日本', 4],
    ['한국어', 6],
    ['ｆｕｌｌ', 8],
    ['🚀', 2],
    ['👍🏽', 2],
    ['👩‍👩‍👧', 2],
    ['🇳🇴', 2],
    ['❤️', 2],
    ['☺', 1],
    ['✓', 1],
    ['e\u0301', 1],
    ['\u0301', 0],
    ['a\u200bb', 2],
    ['\\u001b[31m', 10],
  ])('%j is %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});
