import * as v from '../../../shared/validation/index.js';
import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import { formatIssues } from '../../../shared/schemas/format-issues.js';
import { memo } from '../../../shared/schemas/lazy-schema.js';
import type { McpToolRegistryOptions } from '../mcp-tool-options.js';

const schemas = /* @__PURE__ */ memo(() => {
  const positive = v.optional(v.int().check(v.gt(0), v.lte(3_600_000)));
  const stringRecord = v.optional(v.record(v.string(), v.string()));
  const transport = v.discriminatedUnion('type', [
    v.object({
      type: v.literal('stdio'),
      command: v.string().check(v.minLength(1)),
      args: v.optional(v.array(v.string())),
      env: stringRecord,
      cwd: v.optional(v.string().check(v.minLength(1))),
      stderr: v.optional(v.enum(['ignore', 'inherit'])),
    }),
    v.object({
      type: v.literal('http'),
      url: v.string().check(v.regex(/^https?:\/\//i)),
      headers: stringRecord,
      fetch: v.optional(v.custom<typeof fetch>((value) => typeof value === 'function')),
    }),
  ]);
  return v.object({
    client: v.optional(v.custom((value) => typeof value === 'object' && value !== null)),
    transport: v.optional(transport),
    toolNamePrefix: v.optional(v.string().check(v.regex(/^[A-Za-z0-9_-]{0,32}$/))),
    allowTools: v.optional(v.array(v.string())),
    requiresApproval: v.optional(v.union([v.boolean(), v.custom<(name: string) => boolean>((value) => typeof value === 'function')])),
    callTimeoutMs: positive,
    connectTimeoutMs: positive,
    maxOutputChars: v.optional(v.int().check(v.gt(0), v.lte(10_000_000))),
    maxTools: v.optional(v.int().check(v.gt(0), v.lte(1000))),
  });
});

/**
 * Checks the options of `createMcpToolRegistry`.
 * @throws HarnessConfigError naming the first bad field.
 */
export function validateMcpOptions(options: unknown): McpToolRegistryOptions {
  const parsed = schemas().safeParse(options);
  if (!parsed.success) {
    throw new HarnessConfigError(`Invalid MCP tool registry options: ${formatIssues(parsed.error.issues)}.`, {
      field: parsed.error.issues[0]?.path.map(String).join('.') || 'options',
    });
  }
  const value = parsed.data as McpToolRegistryOptions;
  if ((value.client === undefined) === (value.transport === undefined)) {
    throw new HarnessConfigError('createMcpToolRegistry needs exactly one of client and transport.', { field: 'transport' });
  }
  if (value.client !== undefined) {
    const client = value.client as unknown as Record<string, unknown>;
    if (typeof client.listTools !== 'function' || typeof client.callTool !== 'function' || typeof client.close !== 'function') {
      throw new HarnessConfigError('client must be a connected MCP Client (listTools, callTool and close).', { field: 'client' });
    }
  }
  return value;
}
