/** A Markdown file split into its YAML frontmatter and its body. */
export interface SplitMarkdown {
  /** The YAML between the `---` lines, or undefined when the file has no frontmatter. */
  readonly frontmatter: string | undefined;
  /** The file line of the frontmatter's first line (2: right after the opening `---`). */
  readonly frontmatterLine: number;
  /** Everything after the closing line, trimmed. */
  readonly body: string;
  /** Set when a frontmatter is opened but never closed; `body` is then empty. */
  readonly unclosed: boolean;
}

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits frontmatter off a Markdown file: a first line `---`, then YAML, then a line `---` (or
 * `...`). A file that does not start with `---` has no frontmatter: all of it is the body. A
 * leading byte-order mark is ignored; `\n` and `\r\n` line ends are both accepted.
 */
export function splitFrontmatter(text: string): SplitMarkdown {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = source.split('\n');
  const clean = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);
  if (lines.length === 0 || !OPEN.test(clean(lines[0]!))) {
    return { frontmatter: undefined, frontmatterLine: 1, body: source.trim(), unclosed: false };
  }
  for (let index = 1; index < lines.length; index += 1) {
    if (CLOSE.test(clean(lines[index]!))) {
      return {
        frontmatter: lines.slice(1, index).join('\n'),
        frontmatterLine: 2,
        body: lines.slice(index + 1).join('\n').trim(),
        unclosed: false,
      };
    }
  }
  return { frontmatter: undefined, frontmatterLine: 2, body: '', unclosed: true };
}
