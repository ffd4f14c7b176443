import type { HarnessToolDefinition } from '../../../shared/types/tools.js';
import { toPlainJson } from '../../../core/continuation/to-plain-json.js';

const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_DESCRIPTION_CHARS = 4_000;
const MAX_SCHEMA_BYTES = 65_536;

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
}

/**
 * Turns the server's raw tool list into definitions: each entry is copied as plain JSON and
 * checked; entries without a usable name or an object input schema, duplicates and entries past
 * `maxTools` are left out.
 */
export function readMcpTools(raw: readonly unknown[], filter: McpToolFilter): McpListedTool[] {
  const listed = new Map<string, McpListedTool>();
  for (const entry of raw) {
    if (listed.size >= filter.maxTools) break;
    const copied = toPlainJson(entry, { maxBytes: MAX_SCHEMA_BYTES, maxDepth: 32 });
    if (!copied.ok || typeof copied.value !== 'object' || copied.value === null) continue;
    const tool = copied.value as { name?: unknown; description?: unknown; inputSchema?: unknown };
    if (typeof tool.name !== 'string' || (filter.allow !== undefined && !filter.allow.has(tool.name))) continue;
    const name = `${filter.prefix}${tool.name}`;
    if (!TOOL_NAME_PATTERN.test(name) || listed.has(name)) continue;
    const schema = tool.inputSchema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || (schema as { type?: unknown }).type !== 'object') continue;
    // Models are sent the schema without its `$schema` key (some providers refuse it).
    const { $schema: _dialect, ...inputSchema } = schema as Record<string, unknown>;
    const description = typeof tool.description === 'string' ? tool.description.slice(0, MAX_DESCRIPTION_CHARS) : undefined;
    const rule = filter.requiresApproval;
    const serverName = tool.name;
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
  }
  return [...listed.values()];
}
