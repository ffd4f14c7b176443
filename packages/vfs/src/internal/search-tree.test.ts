import { describe, expect, it } from 'vitest';
import { MAX_SNIPPET_CHARS, snippetAround } from './search-tree.js';

describe('snippetAround', () => {
  it('returns a short line trimmed', () => {
    expect(snippetAround('   const x = 1;  ', 3, 5)).toBe('const x = 1;');
  });

  it('keeps a window around the match of a long line, marked with ellipses', () => {
    const line = `${'a'.repeat(500)}NEEDLE${'b'.repeat(500)}`;
    const snippet = snippetAround(line, 500, 6);
    expect(snippet).toContain('NEEDLE');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(MAX_SNIPPET_CHARS + 2);
  });

  it('does not mark the start when the match is near it', () => {
    const line = `NEEDLE${'b'.repeat(500)}`;
    expect(snippetAround(line, 0, 6).startsWith('NEEDLE')).toBe(true);
  });
});
