import * as z from '../../../shared/validation/index.js';
import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import { formatIssues } from '../../../shared/schemas/format-issues.js';
import { memo } from '../../../shared/schemas/lazy-schema.js';
import type { McpToolRegistryOptions } from '../mcp-tool-options.js';

const schemas = /* @__PURE__ */ memo(() => {
  const positive = z.optional(z.int().check(z.gt(0), z.lte(3_600_000)));
  const stringRecord = z.optional(z.record(z.string(), z.string()));
  const transport = z.discriminatedUnion('type', [
    z.object({
      type: z.literal('stdio'),
      command: z.string().check(z.minLength(1)),
      args: z.optional(z.array(z.string())),
      env: stringRecord,
      cwd: z.optional(z.string().check(z.minLength(1))),
      stderr: z.optional(z.enum(['ignore', 'inherit'])),
    }),
    z.object({
      type: z.literal('http'),
      url: z.string().check(z.regex(/^https?:\/\//i)),
      headers: stringRecord,
      fetch: z.optional(z.custom<typeof fetch>((value) => typeof value === 'function')),
    }),
  ]);
  return z.object({
    client: z.optional(z.custom((value) => typeof value === 'object' && value !== null)),
    transport: z.optional(transport),
    toolNamePrefix: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{0,32}$/))),
    allowTools: z.optional(z.array(z.string())),
    requiresApproval: z.optional(z.union([z.boolean(), z.custom<(name: string) => boolean>((value) => typeof value === 'function')])),
    callTimeoutMs: positive,
    connectTimeoutMs: positive,
    maxOutputChars: z.optional(z.int().check(z.gt(0), z.lte(10_000_000))),
    maxTools: z.optional(z.int().check(z.gt(0), z.lte(1000))),
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
