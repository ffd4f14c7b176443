import type { IncomingMessage, RequestListener } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** The request headers the server saw (lower-case names). */
export type SeenHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What the raw server answers. */
export interface RawServerScript {
  /** The raw `tools/list` result for a cursor (`undefined` for the first page). */
  listTools(cursor: string | undefined, headers: SeenHeaders): unknown;
  /** The raw `tools/call` result; throw an `McpError` for a JSON-RPC error. @default an empty text result */
  callTool?(name: string, input: unknown, headers: SeenHeaders): unknown;
}

/** A low-level SDK server answering `tools/list` and `tools/call` from `script`. */
export function createRawServer(script: RawServerScript): Server;

/** An HTTP answer the test sends instead of the MCP server's, e.g. a 401 with a body. */
export interface InterceptedAnswer {
  status: number;
  body: string;
}

/** Options of {@link mcpHttpHandler}. */
export interface McpHttpHandlerOptions {
  /** Sees each JSON-RPC message posted (and the request); an answer returned is sent instead. */
  intercept?(message: unknown, request: IncomingMessage): InterceptedAnswer | undefined;
}

/**
 * A streamable-HTTP handler for loopback tests: one SDK transport and a fresh server (from
 * `makeServer`) per MCP session.
 */
export function mcpHttpHandler(
  makeServer: () => { connect(transport: StreamableHTTPServerTransport): Promise<void> },
  options?: McpHttpHandlerOptions,
): RequestListener;

/** Options of {@link mcpFetch}. */
export interface McpFetchOptions {
  /** Sees each JSON-RPC message posted (and the request headers); an answer returned is sent instead. */
  intercept?(message: unknown, headers: SeenHeaders): InterceptedAnswer | undefined;
}

/**
 * A `fetch` that answers from a fresh stateless SDK server per request (no socket): the
 * registry's streamable-HTTP client speaks the real protocol to it.
 */
export function mcpFetch(
  makeServer: () => { connect(transport: WebStandardStreamableHTTPServerTransport): Promise<void> },
  options?: McpFetchOptions,
): typeof fetch;
