import type { HarnessToolDefinition } from '../../../shared/types/tools.js';
import { toPlainJson } from '../../../core/continuation/to-plain-json.js';
import type { McpSkippedTool } from '../mcp-tool-options.js';

const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_DESCRIPTION_CHARS = 4_000;
const MAX_SCHEMA_BYTES = 65_536;
/** At most this many skipped entries are described; the rest are only counted. */
export const MAX_SKIPPED_NOTES = 100;
const MAX_SKIPPED_NAME_CHARS = 80;

/** A server tool offered to the model under `name`. */
export interface McpListedTool {
  /** The name the model sees (prefix included). */
  name: string;
  /** The name the server knows. */
  serverName: string;
  definition: HarnessToolDefinition;
}

/** What to take from a server's tool list. */
export interface McpToolFilter {
  prefix: string;
  allow: ReadonlySet<string> | undefined;
  requiresApproval: boolean | ((toolName: string) => boolean);
  maxTools: number;
  /** Applied to every string of an entry (the registry's redactor). */
  redact: (text: string) => string;
}

/** The tools read from a server's list, and what was left out. */
export interface McpToolList {
  tools: McpListedTool[];
  /** The first {@link MAX_SKIPPED_NOTES} entries left out, and why. */
  skipped: McpSkippedTool[];
  /** How many entries were left out in all. */
  skippedCount: number;
}

/** Reads `tools/list` entries one at a time, until `maxTools` are taken. */
export interface McpToolReader {
  /** True once `maxTools` tools are taken: read no further. */
  readonly full: boolean;
  /** Checks one raw entry of the server's list: takes it, or notes why it is left out. */
  add(entry: unknown): void;
  result(): McpToolList;
}

/**
 * A reader of the server's raw tool list: each entry is copied as bounded plain JSON (every
 * string redacted) and checked on its own, so one bad entry leaves out only itself. Entries
 * without a usable name or an object input schema, duplicates and entries over 64 KiB are left
 * out and noted; entries filtered out by `allow` are left out silently.
 */
export function createMcpToolReader(filter: McpToolFilter): McpToolReader {
  const listed = new Map<string, McpListedTool>();
  const skipped: McpSkippedTool[] = [];
  let skippedCount = 0;
  let index = -1;
  const skip = (reason: string, name?: string) => {
    skippedCount += 1;
    if (skipped.length >= MAX_SKIPPED_NOTES) return;
    const shown = name === undefined ? undefined : name.length > MAX_SKIPPED_NAME_CHARS ? `${name.slice(0, MAX_SKIPPED_NAME_CHARS)}…` : name;
    skipped.push({ index, ...(shown === undefined ? {} : { name: shown }), reason });
  };
  return {
    get full() {
      return listed.size >= filter.maxTools;
    },
    add(entry) {
      index += 1;
      const copied = toPlainJson(entry, { maxBytes: MAX_SCHEMA_BYTES, maxDepth: 32, mapText: filter.redact });
      if (!copied.ok) return skip(`the entry is not usable JSON: ${copied.reason}`);
      if (typeof copied.value !== 'object' || copied.value === null || Array.isArray(copied.value)) return skip('the entry is not an object');
      const tool = copied.value as { name?: unknown; description?: unknown; inputSchema?: unknown };
      if (typeof tool.name !== 'string') return skip('the entry has no name');
      const serverName = tool.name;
      if (filter.allow !== undefined && !filter.allow.has(serverName)) return;
      const name = `${filter.prefix}${serverName}`;
      if (!TOOL_NAME_PATTERN.test(name)) return skip('the name (with the prefix) does not fit [A-Za-z0-9_-]{1,64}', serverName);
      if (listed.has(name)) return skip('an earlier tool has the same name', serverName);
      const schema = tool.inputSchema;
      if (schema === undefined) return skip('the entry has no inputSchema', serverName);
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || (schema as { type?: unknown }).type !== 'object') {
        return skip('the inputSchema is not an object schema (type "object")', serverName);
      }
      // Models are sent the schema without its `$schema` key (some providers refuse it).
      const { $schema: _dialect, ...inputSchema } = schema as Record<string, unknown>;
      const description = typeof tool.description === 'string' ? tool.description.slice(0, MAX_DESCRIPTION_CHARS) : undefined;
      const rule = filter.requiresApproval;
      listed.set(name, {
        name,
        serverName,
        definition: {
          name,
          ...(description === undefined ? {} : { description }),
          inputSchema,
          ...(rule === false ? {} : { requiresApproval: typeof rule === 'boolean' ? rule : () => rule(serverName) }),
          metadata: { mcpToolName: serverName },
        },
      });
    },
    result: () => ({ tools: [...listed.values()], skipped, skippedCount }),
  };
}
