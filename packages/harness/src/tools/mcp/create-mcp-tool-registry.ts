import type { HarnessToolCall, HarnessToolExecutionContext, HarnessToolRegistry, HarnessToolResult, HarnessToolDefinition } from '../../shared/types/tools.js';
import { createRedactor, headerSecrets, sensitiveHeaderValues, type Redactor } from '../../shared/redact-secrets.js';
import { loadMcpModule, type McpClientConstructor, type McpTransportLike } from './internal/load-mcp-sdk.js';
import { listMcpTools, mcpListError } from './internal/list-mcp-tools.js';
import { mapCallError, mapCallResult } from './internal/map-mcp-result.js';
import type { McpListedTool, McpToolList } from './internal/read-mcp-tools.js';
import { validateMcpOptions } from './internal/validate-mcp-options.js';
import type { McpClientLike, McpHttpTransportOptions, McpSkippedTool, McpStdioTransportOptions, McpToolRegistryOptions } from './mcp-tool-options.js';

/** A tool registry over one MCP server. */
export interface McpToolRegistry extends HarnessToolRegistry {
  /** The server's tools (connecting on first use); listed again after the server sends `tools/list_changed`. */
  listAvailable(): Promise<HarnessToolDefinition[]>;
  /** Calls a server tool with the turn's signal and the call timeout. Never rejects. */
  execute(call: HarnessToolCall, context: HarnessToolExecutionContext): Promise<HarnessToolResult>;
  /**
   * The server's entries the last listing left out, and why (a name that models cannot call, a
   * missing or non-object input schema, a duplicate, an entry over 64 KiB): at most the first 100.
   * Empty before the first listing.
   */
  skippedTools(): McpSkippedTool[];
  /** Forgets the listed tools, so the next turn lists them again. */
  refresh(): void;
  /**
   * Closes the connection the registry opened (ending a stdio server's process); a client
   * passed in is left open. Later calls connect again.
   */
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'agent-assistant-harness', version: '1' };

/**
 * Offers the tools of an MCP server (Model Context Protocol) to the harness, over
 * `@modelcontextprotocol/sdk` — an optional peer dependency loaded on first use. Give a
 * connected `Client`, or a transport: `stdio` starts the server as a child process (Node.js
 * only), `http` speaks streamable HTTP (Node.js and Workers). Results map `content` to text,
 * `structuredContent` to structured output and `isError` to a retryable tool error.
 * @throws HarnessConfigError for invalid options (a missing SDK is reported on first use).
 * @example
 * ```ts
 * const docs = createMcpToolRegistry({ transport: { type: 'http', url: 'https://mcp.example.com/mcp' }, toolNamePrefix: 'docs_' });
 * const harness = createHarness({ model, tools: docs });
 * // …when the process ends:
 * await docs.close();
 * ```
 */
export function createMcpToolRegistry(options: McpToolRegistryOptions): McpToolRegistry {
  const config = validateMcpOptions(options);
  const callTimeoutMs = config.callTimeoutMs ?? 60_000;
  const connectTimeoutMs = config.connectTimeoutMs ?? 30_000;
  const maxOutputChars = config.maxOutputChars ?? 50_000;
  const redactor = configuredSecrets(config.transport);
  const filter = {
    prefix: config.toolNamePrefix ?? '',
    allow: config.allowTools === undefined ? undefined : new Set(config.allowTools),
    requiresApproval: config.requiresApproval ?? false,
    maxTools: config.maxTools ?? 128,
    redact: redactor.exact,
  };
  let connecting: Promise<McpClientLike> | undefined;
  let listing: Promise<McpToolList> | undefined;
  let lastSkipped: McpSkippedTool[] = [];

  const connect = (): Promise<McpClientLike> => {
    if (config.client !== undefined) return Promise.resolve(config.client);
    if (connecting !== undefined) return connecting;
    const opened = openClient(config.transport!, connectTimeoutMs, {
      onToolsChanged: () => {
        listing = undefined;
      },
      onClose: () => {
        // A server that went away is started or reached again on the next use.
        if (connecting === opened) {
          connecting = undefined;
          listing = undefined;
        }
      },
    });
    connecting = opened;
    opened.catch(() => {
      if (connecting === opened) connecting = undefined;
    });
    return opened;
  };

  const list = (): Promise<McpToolList> => {
    listing ??= connect().then(async (client) => {
      const listed = await listMcpTools(client, connectTimeoutMs, filter);
      lastSkipped = listed.skipped;
      return listed;
    });
    listing.catch(() => {
      listing = undefined;
    });
    return listing;
  };

  return {
    async listAvailable() {
      try {
        return (await list()).tools.map((tool) => tool.definition);
      } catch (error) {
        throw mcpListError(error, redactor);
      }
    },
    async execute(call, context) {
      let client: McpClientLike;
      let tool: McpListedTool | undefined;
      try {
        client = await connect();
        tool = (await list()).tools.find((item) => item.name === call.name);
      } catch (error) {
        return mapCallError(call, error, callTimeoutMs, redactor);
      }
      if (tool === undefined) {
        return {
          callId: call.id,
          toolName: call.name,
          status: 'error',
          error: { code: 'tool_unavailable', message: `The MCP server offers no tool named "${call.name}".`, retryable: true },
        };
      }
      try {
        const raw = await client.callTool({ name: tool.serverName, arguments: call.input }, undefined, {
          signal: context.signal,
          timeout: callTimeoutMs,
        });
        return mapCallResult(call, raw, maxOutputChars, redactor);
      } catch (error) {
        if (context.signal.aborted) {
          return { callId: call.id, toolName: call.name, status: 'error', error: { code: 'aborted', message: 'The turn was stopped.', retryable: true } };
        }
        return mapCallError(call, error, callTimeoutMs, redactor);
      }
    },
    skippedTools() {
      return lastSkipped.map((note) => ({ ...note }));
    },
    refresh() {
      listing = undefined;
    },
    async close() {
      const pending = connecting;
      connecting = undefined;
      listing = undefined;
      if (pending === undefined) return;
      const client = await pending.catch(() => undefined);
      await client?.close();
    },
  };
}

/**
 * A redactor of the configured secrets: every `headers` value of an HTTP transport, and the
 * secret-looking `env` values of a stdio one.
 */
function configuredSecrets(transport: McpStdioTransportOptions | McpHttpTransportOptions | undefined): Redactor {
  if (transport === undefined) return createRedactor([]);
  return createRedactor(transport.type === 'http' ? headerSecrets(transport.headers) : sensitiveHeaderValues(transport.env));
}

/** Connects a new SDK client over the configured transport. */
async function openClient(
  transport: McpStdioTransportOptions | McpHttpTransportOptions,
  timeoutMs: number,
  events: { onToolsChanged: () => void; onClose: () => void },
): Promise<McpClientLike> {
  const Client = await loadMcpModule<McpClientConstructor>('client/index.js', 'Client');
  const client = new Client(CLIENT_INFO, {
    capabilities: {},
    // Structured output is passed on as data, not trusted; this also keeps Ajv's code generation out of Workers.
    jsonSchemaValidator: { getValidator: () => (input: unknown) => ({ valid: true, data: input, errorMessage: undefined }) },
    listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: events.onToolsChanged } },
  });
  await client.connect(await openTransport(transport), { timeout: timeoutMs });
  client.onclose = events.onClose;
  return client;
}

async function openTransport(transport: McpStdioTransportOptions | McpHttpTransportOptions): Promise<McpTransportLike> {
  if (transport.type === 'stdio') {
    const Stdio = await loadMcpModule<new (params: Record<string, unknown>) => McpTransportLike>('client/stdio.js', 'StdioClientTransport');
    return new Stdio({
      command: transport.command,
      args: [...(transport.args ?? [])],
      ...(transport.env === undefined ? {} : { env: { ...transport.env } }),
      ...(transport.cwd === undefined ? {} : { cwd: transport.cwd }),
      stderr: transport.stderr ?? 'ignore',
    });
  }
  const Http = await loadMcpModule<new (url: URL, options: Record<string, unknown>) => McpTransportLike>(
    'client/streamableHttp.js',
    'StreamableHTTPClientTransport',
  );
  return new Http(new URL(transport.url), {
    ...(transport.headers === undefined ? {} : { requestInit: { headers: { ...transport.headers } } }),
    ...(transport.fetch === undefined ? {} : { fetch: transport.fetch }),
  });
}
