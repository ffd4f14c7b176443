import { parseYaml, type YamlMap } from './parse-yaml.js';
import { splitFrontmatter } from './split-frontmatter.js';
import { kindOf, type FileScope } from './yaml-fields.js';

/** A Markdown file's frontmatter (an empty mapping when it has none) and body. */
export interface MarkdownFile {
  readonly frontmatter: YamlMap;
  /** True when the file had a frontmatter block. */
  readonly hasFrontmatter: boolean;
  readonly body: string;
}

/**
 * Splits and parses a Markdown file with YAML frontmatter, reporting problems (with the file's own
 * line numbers) to the scope. Undefined after a problem.
 */
export async function readMarkdownFile(scope: FileScope, text: string): Promise<MarkdownFile | undefined> {
  const split = splitFrontmatter(text);
  if (split.unclosed) {
    scope.log.problem(scope.file, 'The frontmatter opened by --- on line 1 is never closed by a --- line.', { line: 1 });
    return undefined;
  }
  const empty: YamlMap = { kind: 'map', entries: new Map(), line: split.frontmatterLine };
  if (split.frontmatter === undefined) return { frontmatter: empty, hasFrontmatter: false, body: split.body };
  const parsed = await parseYaml(split.frontmatter, { firstLine: split.frontmatterLine });
  for (const warning of parsed.warnings) scope.log.warning(scope.file, `YAML: ${warning.message}`, { line: warning.line });
  if (parsed.errors.length > 0) {
    for (const error of parsed.errors) scope.log.problem(scope.file, `Malformed YAML frontmatter: ${error.message}`, { line: error.line });
    return undefined;
  }
  const { value } = parsed;
  if (value === undefined) return { frontmatter: empty, hasFrontmatter: true, body: split.body };
  if (value.kind !== 'map') {
    scope.log.problem(scope.file, `The frontmatter must be a mapping of keys to values; got ${kindOf(value)}.`, { line: value.line });
    return undefined;
  }
  return { frontmatter: value, hasFrontmatter: true, body: split.body };
}
