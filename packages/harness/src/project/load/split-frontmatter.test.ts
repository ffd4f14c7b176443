import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from './split-frontmatter.js';

describe('splitFrontmatter', () => {
  it('splits frontmatter and body', () => {
    expect(splitFrontmatter('---\na: 1\n---\n\nBody\n')).toEqual({ frontmatter: 'a: 1', frontmatterLine: 2, body: 'Body', unclosed: false });
  });

  it('accepts CRLF, a byte-order mark, trailing spaces and a closing ...', () => {
    expect(splitFrontmatter('\uFEFF---  \r\na: 1\r\n...\r\nBody\r\n')).toEqual({ frontmatter: 'a: 1\r', frontmatterLine: 2, body: 'Body', unclosed: false });
  });

  it('takes a file without an opening --- as all body, and an unclosed frontmatter as unclosed', () => {
    expect(splitFrontmatter('Body\n---\nmore')).toEqual({ frontmatter: undefined, frontmatterLine: 1, body: 'Body\n---\nmore', unclosed: false });
    expect(splitFrontmatter('---\na: 1\n')).toMatchObject({ frontmatter: undefined, unclosed: true });
    expect(splitFrontmatter('----\na: 1\n---\n')).toMatchObject({ frontmatter: undefined, unclosed: false });
    expect(splitFrontmatter('---\n---\nBody')).toEqual({ frontmatter: '', frontmatterLine: 2, body: 'Body', unclosed: false });
  });
});
