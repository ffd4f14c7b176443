/** The MCP SDK calls a tool with these options; `signal` and `timeout` bound the request. */
export interface McpRequestOptionsLike {
  signal?: AbortSignal | undefined;
  timeout?: number | undefined;
}

/**
 * The part of an `@modelcontextprotocol/sdk` `Client` the registry uses. Pass a connected
 * `Client` as `{ client }`; the registry never closes a client it did not create.
 */
export interface McpClientLike {
  /**
   * Used only when the client has no `request` method. An SDK `Client` has one: the registry
   * then sends `tools/list` through it with a schema that accepts any result and checks each
   * entry on its own (the SDK's `listTools` rejects a whole page for one malformed entry).
   */
  listTools(params?: { cursor?: string }, options?: McpRequestOptionsLike): Promise<{ tools: unknown[]; nextCursor?: string | undefined }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: McpRequestOptionsLike,
  ): Promise<unknown>;
  close(): Promise<void>;
}

/** Start an MCP server as a child process and speak to it over stdin/stdout (Node.js only). */
export interface McpStdioTransportOptions {
  type: 'stdio';
  /** The program to run (no shell). */
  command: string;
  /** Its arguments. @default [] */
  args?: readonly string[] | undefined;
  /**
   * Variables added to the SDK's minimal default environment (`HOME`, `PATH`, `USER`, …); nothing
   * else of this process's environment is passed on. Values of variables whose names look secret
   * (`…KEY…`, `…TOKEN…`, `…SECRET…`, `…AUTH…`, `…PASSWORD…`) are redacted like `headers`. @default undefined
   */
  env?: Readonly<Record<string, string>> | undefined;
  /** Working directory of the server. @default the current directory */
  cwd?: string | undefined;
  /** What happens to the server's stderr. @default 'ignore' */
  stderr?: 'ignore' | 'inherit' | undefined;
}

/** Speak to an MCP server over streamable HTTP (works in Node.js and Workers). */
export interface McpHttpTransportOptions {
  type: 'http';
  /** The server's MCP endpoint, `https://…` (or `http://` for loopback and local networks). */
  url: string;
  /**
   * Headers sent with every request, e.g. `Authorization`. Every value (of 6 characters or more,
   * and the credentials after an auth scheme such as `Bearer`) is a secret: redacted from
   * results, errors, tool definitions and traces, even when the server echoes it back (literally
   * or JSON-escaped). @default undefined
   */
  headers?: Readonly<Record<string, string>> | undefined;
  /** A `fetch` to use instead of the global one. @default globalThis.fetch */
  fetch?: typeof fetch | undefined;
}

/** Options shared by both forms of {@link McpToolRegistryOptions}. */
export interface McpToolRegistryCommonOptions {
  /**
   * Prepended to every tool name the model sees, e.g. `docs_`, so several servers can be
   * composed. Names that do not fit `[A-Za-z0-9_-]{1,64}` with the prefix are left out.
   * @default ''
   */
  toolNamePrefix?: string | undefined;
  /** Only these server tool names are offered (names before the prefix). @default every tool */
  allowTools?: readonly string[] | undefined;
  /**
   * `true`, or a function of the server tool name returning `true`, pauses the turn for approval
   * before such a call runs. @default false
   */
  requiresApproval?: boolean | ((toolName: string) => boolean) | undefined;
  /** Longest time one tool call may take, in milliseconds; the turn's deadline also applies. @default 60000 */
  callTimeoutMs?: number | undefined;
  /** Longest time connecting and listing tools may take, in milliseconds. @default 30000 */
  connectTimeoutMs?: number | undefined;
  /** Most characters of text output given to the model per call; the rest is cut. @default 50000 */
  maxOutputChars?: number | undefined;
  /**
   * Most tools taken from the server (1 to 1000): pages of `tools/list` are read until this many
   * usable tools are taken, and no further. @default 128
   */
  maxTools?: number | undefined;
}

/** A server tool the registry left out of its list, and why (see `McpToolRegistry.skippedTools`). */
export interface McpSkippedTool {
  /** Its position in the server's list, counted from 0 across pages. */
  index: number;
  /** Its name, when it had one: redacted, cut to 80 characters. */
  name?: string | undefined;
  /** Why it was left out, e.g. `the inputSchema is not an object schema (type "object")`. */
  reason: string;
}

/** Options of `createMcpToolRegistry`: a connected client, or a transport for the registry to open. */
export type McpToolRegistryOptions = McpToolRegistryCommonOptions &
  ({ client: McpClientLike; transport?: undefined } | { transport: McpStdioTransportOptions | McpHttpTransportOptions; client?: undefined });
