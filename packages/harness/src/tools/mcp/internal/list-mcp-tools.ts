import { describeError } from '../../../shared/describe-error.js';
import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import type { Redactor } from '../../../shared/redact-secrets.js';
import { ToolExecutionError } from '../../tool-execution-error.js';
import type { McpClientLike, McpRequestOptionsLike } from '../mcp-tool-options.js';
import { createMcpToolReader, type McpToolFilter, type McpToolList } from './read-mcp-tools.js';

const MAX_PAGES = 20;

/** A result schema in the form the SDK's `Protocol.request` accepts (its Zod 3 form: `safeParse`). */
interface ResultSchemaLike {
  safeParse(data: unknown): { success: true; data: unknown };
}

/** `Client.request` of the SDK, as used here. */
type RawRequest = (request: { method: string; params?: { cursor: string } }, resultSchema: ResultSchemaLike, options: McpRequestOptionsLike) => Promise<unknown>;

/** Accepts any result: the entries of `tools/list` are checked one by one, not by the SDK's schema. */
const ANY_RESULT: ResultSchemaLike = { safeParse: (data) => ({ success: true, data }) };

/**
 * Reads pages of `tools/list` (at most 20) until `filter.maxTools` usable tools are taken. With a
 * client that has `request` (every SDK `Client`), pages bypass the SDK's strict result schema, so
 * one malformed entry leaves out only itself.
 */
export async function listMcpTools(client: McpClientLike, timeoutMs: number, filter: McpToolFilter): Promise<McpToolList> {
  const reader = createMcpToolReader(filter);
  const request = (client as { request?: unknown }).request;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && !reader.full; page += 1) {
    const params = cursor === undefined ? undefined : { cursor };
    const result: unknown =
      typeof request === 'function'
        ? await (request as RawRequest).call(client, { method: 'tools/list', ...(params === undefined ? {} : { params }) }, ANY_RESULT, { timeout: timeoutMs })
        : await client.listTools(params, { timeout: timeoutMs });
    if (typeof result !== 'object' || result === null) break;
    const { tools, nextCursor } = result as { tools?: unknown; nextCursor?: unknown };
    if (Array.isArray(tools)) {
      for (let index = 0; index < tools.length && !reader.full; index += 1) reader.add(tools[index]);
    }
    cursor = typeof nextCursor === 'string' && nextCursor !== '' ? nextCursor : undefined;
    if (cursor === undefined) break;
  }
  return reader.result();
}

/**
 * The error `listAvailable` throws when connecting or listing failed: the registry's own
 * configuration error as it is, anything else described with the configured secrets redacted
 * (a server may echo them in a 401 body or an error message).
 */
export function mcpListError(error: unknown, redactor: Redactor): Error {
  try {
    if (error instanceof HarnessConfigError) return error;
  } catch {
    // A Proxy whose prototype trap throws: described below like any other value.
  }
  return new ToolExecutionError(`The MCP server's tools could not be listed: ${redactor.text(describeError(error))}`, {
    reason: 'mcp_unavailable',
    retryable: false,
  });
}
