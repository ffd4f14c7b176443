// The parts of `node:http`, `node:https` and `node:stream` that `createNodeHttpFetch` uses, typed
// structurally (the Worker-safe build has no @types/node) and loaded on first use, never at import.
import { loadBuiltins } from '../../shared/load-builtins.js';

/** Options of `new http.Agent(…)` that `createNodeHttpFetch` sets. */
export interface NodeAgentOptions {
  keepAlive: boolean;
  keepAliveMsecs: number;
  maxSockets: number;
}

/** An `http.Agent` / `https.Agent`. */
export interface NodeAgentLike {
  destroy(): void;
}

/** Request options passed to `http.request` / `https.request`. */
export interface NodeRequestOptions {
  protocol: string;
  hostname: string;
  port: string | undefined;
  path: string;
  method: string;
  headers: Record<string, string>;
  agent: NodeAgentLike;
}

/** An `http.IncomingMessage`: the response head and its body as a Node stream. */
export interface NodeIncomingMessageLike {
  statusCode?: number | undefined;
  statusMessage?: string | undefined;
  /** Names and values alternating, as received. */
  rawHeaders: string[];
  once(event: 'close', listener: () => void): unknown;
  resume(): unknown;
  destroy(error?: unknown): unknown;
}

/** An `http.ClientRequest`. */
export interface NodeClientRequestLike {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  end(body?: Uint8Array): unknown;
  destroy(error?: unknown): unknown;
}

/** `node:http` or `node:https`. */
export interface NodeHttpModuleLike {
  Agent: new (options: NodeAgentOptions) => NodeAgentLike;
  request(options: NodeRequestOptions, onResponse: (response: NodeIncomingMessageLike) => void): NodeClientRequestLike;
}

/** What `createNodeHttpFetch` needs from Node.js. */
export interface NodeHttpModules {
  http: NodeHttpModuleLike;
  https: NodeHttpModuleLike;
  /** `Readable.toWeb` from `node:stream`. */
  toWeb(readable: NodeIncomingMessageLike): ReadableStream<Uint8Array>;
}

let loaded: Promise<NodeHttpModules> | undefined;

/**
 * Loads `node:http`, `node:https` and `node:stream` once; rejects with `NodeModulesUnavailableError`
 * outside Node.js (a failed load is retried on the next call).
 */
export function loadNodeHttpModules(): Promise<NodeHttpModules> {
  loaded ??= loadBuiltins(['node:http', 'node:https', 'node:stream']).then(([http, https, stream]) => {
    const { Readable } = stream as { Readable: { toWeb(readable: NodeIncomingMessageLike): ReadableStream<Uint8Array> } };
    return { http: http as NodeHttpModuleLike, https: https as NodeHttpModuleLike, toWeb: (readable) => Readable.toWeb(readable) };
  });
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
