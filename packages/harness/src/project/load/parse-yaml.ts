// YAML (and JSON, read by the same parser with its JSON schema) into a small tree that keeps the
// line of every key and value. The `yaml` package loads lazily, on the first project loaded, so
// it reaches no bundle of a product that never loads one.
import type { Document, Node as YamlAstNode } from 'yaml';

/** A scalar: text, number, boolean or null (an empty value). */
export interface YamlScalar {
  readonly kind: 'scalar';
  readonly value: string | number | boolean | null;
  readonly line: number;
}

/** A sequence. */
export interface YamlList {
  readonly kind: 'list';
  readonly items: readonly YamlValue[];
  readonly line: number;
}

/** One key of a mapping, with the line of the key. */
export interface YamlEntry {
  readonly key: string;
  readonly line: number;
  readonly value: YamlValue;
}

/** A mapping, keys in file order. */
export interface YamlMap {
  readonly kind: 'map';
  readonly entries: ReadonlyMap<string, YamlEntry>;
  readonly line: number;
}

/** A parsed YAML value with its 1-based line in the file. */
export type YamlValue = YamlScalar | YamlList | YamlMap;

/** A YAML error or warning at a 1-based line of the file. */
export interface YamlIssue {
  readonly line: number;
  readonly message: string;
}

/** What `parseYaml` found: the value (undefined for an empty document) and any errors and warnings. */
export interface ParsedYaml {
  readonly value: YamlValue | undefined;
  readonly errors: readonly YamlIssue[];
  readonly warnings: readonly YamlIssue[];
}

/** Deepest nesting accepted. Deeper input exhausts the parser's stack; no project file needs more than a few levels. */
export const MAX_YAML_DEPTH = 32;
/** Most values one file may expand to, aliases included (an alias bomb stops here). */
export const MAX_YAML_NODES = 20_000;
/** Most YAML errors reported for one file. */
const MAX_REPORTED_ERRORS = 10;

type YamlModule = typeof import('yaml');
let yamlModule: Promise<YamlModule> | undefined;

function loadYaml(): Promise<YamlModule> {
  yamlModule ??= import('yaml');
  return yamlModule;
}

/**
 * Parses one YAML document. `firstLine` is the file line of the text's first line (frontmatter
 * starts on line 2), so every reported line is the file's own. `json` parses with the JSON schema.
 */
export async function parseYaml(text: string, options: { firstLine?: number; json?: boolean } = {}): Promise<ParsedYaml> {
  const yaml = await loadYaml();
  const offset = (options.firstLine ?? 1) - 1;
  const lineCounter = new yaml.LineCounter();
  const lineAt = (position: number): number => lineCounter.linePos(Math.max(0, position)).line + offset;
  const tokens = [...new yaml.Parser(lineCounter.addNewLine).parse(text)];
  const tooDeep = tokens.map((token) => deepestOffset(token)).find((found) => found !== undefined);
  if (tooDeep !== undefined) {
    return { value: undefined, errors: [{ line: lineAt(tooDeep), message: `YAML nested more than ${MAX_YAML_DEPTH} levels deep.` }], warnings: [] };
  }
  const composer = new yaml.Composer({
    version: '1.2',
    schema: options.json === true ? 'json' : 'core',
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
  });
  const documents = [...composer.compose(tokens, true, text.length)];
  const errors: YamlIssue[] = [];
  const warnings: YamlIssue[] = [];
  for (const document of documents) {
    for (const error of document.errors) errors.push({ line: lineAt(error.pos[0]), message: firstLine(error.message) });
    for (const warning of document.warnings) warnings.push({ line: lineAt(warning.pos[0]), message: firstLine(warning.message) });
  }
  if (documents.length > 1) errors.push({ line: lineAt(documents[1]!.range[0]), message: 'More than one YAML document; a project file holds one.' });
  if (errors.length > 0) return { value: undefined, errors: capErrors(errors), warnings };
  const document = documents[0];
  if (document === undefined || document.contents === null) return { value: undefined, errors, warnings };
  const converted = convertDocument(yaml, document, lineAt);
  return 'error' in converted ? { value: undefined, errors: [converted.error], warnings } : { value: converted.value, errors, warnings };
}

function firstLine(message: string): string {
  const line = message.split('\n', 1)[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, '');
}

function capErrors(errors: YamlIssue[]): YamlIssue[] {
  if (errors.length <= MAX_REPORTED_ERRORS) return errors;
  const more = errors.length - MAX_REPORTED_ERRORS;
  return [...errors.slice(0, MAX_REPORTED_ERRORS), { line: errors[MAX_REPORTED_ERRORS]!.line, message: `… and ${more} more YAML errors.` }];
}

interface CstItem {
  key?: unknown;
  value?: unknown;
}

/**
 * The offset of a CST token nested deeper than `MAX_YAML_DEPTH`, or undefined. Walks the CST with
 * an explicit stack: the parser itself is iterative, only composing recurses.
 */
function deepestOffset(root: unknown): number | undefined {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [token, depth] = stack.pop()!;
    if (typeof token !== 'object' || token === null) continue;
    const node = token as { type?: string; offset?: number; value?: unknown; items?: CstItem[] };
    if (depth > MAX_YAML_DEPTH) return node.offset ?? 0;
    if (node.type === 'document') stack.push([node.value, depth]);
    else if (node.type === 'block-map' || node.type === 'block-seq' || node.type === 'flow-collection') {
      for (const item of node.items ?? []) {
        stack.push([item.key, depth + 1], [item.value, depth + 1]);
      }
    }
  }
  return undefined;
}

type Converted = { value: YamlValue } | { error: YamlIssue };

function convertDocument(yaml: YamlModule, document: Document.Parsed, lineAt: (position: number) => number): Converted {
  let nodes = 0;
  const fail = (node: YamlAstNode | null, message: string): never => {
    throw new ConversionError({ line: lineAt(node?.range?.[0] ?? 0), message });
  };

  function convert(node: YamlAstNode | null, depth: number, parentLine: number): YamlValue {
    nodes += 1;
    if (nodes > MAX_YAML_NODES) fail(node, `YAML expands to more than ${MAX_YAML_NODES} values (aliases included).`);
    if (depth > MAX_YAML_DEPTH) fail(node, `YAML nested more than ${MAX_YAML_DEPTH} levels deep.`);
    if (node === null) return { kind: 'scalar', value: null, line: parentLine };
    const line = lineAt(node.range?.[0] ?? 0);
    if (yaml.isAlias(node)) {
      const target = node.resolve(document);
      if (target === undefined) fail(node, `Unknown YAML alias *${node.source}.`);
      return convert(target as YamlAstNode, depth + 1, line);
    }
    if (yaml.isScalar(node)) {
      const { value } = node;
      if (value === null || typeof value === 'string' || typeof value === 'boolean') return { kind: 'scalar', value, line };
      if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'scalar', value, line };
      return fail(node, 'Unsupported YAML value (use text, a finite number, true/false or a list or mapping).');
    }
    if (yaml.isSeq(node)) {
      return { kind: 'list', items: node.items.map((item) => convert(item as YamlAstNode | null, depth + 1, line)), line };
    }
    if (yaml.isMap(node)) {
      const entries = new Map<string, YamlEntry>();
      for (const pair of node.items) {
        const keyNode = pair.key as YamlAstNode | null;
        const keyLine = lineAt(keyNode?.range?.[0] ?? node.range?.[0] ?? 0);
        const key = yaml.isScalar(keyNode) ? keyNode.value : undefined;
        if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean') {
          throw new ConversionError({ line: keyLine, message: 'A mapping key must be plain text.' });
        }
        const name = String(key);
        if (entries.has(name)) throw new ConversionError({ line: keyLine, message: `Duplicate key ${JSON.stringify(name)}.` });
        entries.set(name, { key: name, line: keyLine, value: convert(pair.value as YamlAstNode | null, depth + 1, keyLine) });
      }
      return { kind: 'map', entries, line };
    }
    return fail(node, 'Unsupported YAML node.');
  }

  try {
    return { value: convert(document.contents, 0, lineAt(0)) };
  } catch (error) {
    if (error instanceof ConversionError) return { error: error.issue };
    throw error;
  }
}

class ConversionError extends Error {
  constructor(readonly issue: YamlIssue) {
    super(issue.message);
  }
}
