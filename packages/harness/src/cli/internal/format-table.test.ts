import { describe, expect, it } from 'vitest';
import { formatTable } from './format-table.js';

describe('formatTable', () => {
  it('pads columns to the widest cell and escapes control characters', () => {
    expect(formatTable(['name', 'kind'], [['a\nb', 'x'], ['long-name', 'y']])).toBe('name       kind\na\\nb       x\nlong-name  y\n');
  });

  it('takes any number of rows (no spread into Math.max)', () => {
    const rows = Array.from({ length: 200_000 }, (_, index) => [String(index), 'x']);
    expect(formatTable(['n', 'k'], rows).split('\n')).toHaveLength(200_002);
  });
});
