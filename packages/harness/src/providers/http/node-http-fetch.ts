import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import {
  loadNodeHttpModules,
  type NodeAgentLike,
  type NodeAgentOptions,
  type NodeHttpModuleLike,
  type NodeHttpModules,
  type NodeIncomingMessageLike,
} from './node-http-modules.js';
import type { FetchFunction } from './post-json.js';

/** Options of `createNodeHttpFetch`: the keep-alive agent each created `fetch` owns. */
export interface NodeHttpFetchOptions {
  /**
   * Keeps idle sockets open for the next request to the same origin.
   * @default true
   */
  keepAlive?: boolean | undefined;
  /**
   * Initial delay of TCP keep-alive probes on idle sockets, in milliseconds (Node's
   * `http.Agent` `keepAliveMsecs`). Only used with `keepAlive: true`.
   * @default 1000
   */
  keepAliveMsecs?: number | undefined;
  /**
   * Most sockets open at once per origin (a positive whole number, or `Infinity`); requests beyond
   * it wait in the agent's queue.
   * @default Infinity
   */
  maxSockets?: number | undefined;
}

/** Defaults of `NodeHttpFetchOptions`. */
export const DEFAULT_NODE_HTTP_FETCH_OPTIONS: Readonly<{ keepAlive: boolean; keepAliveMsecs: number; maxSockets: number }> =
  /* @__PURE__ */ Object.freeze({ keepAlive: true, keepAliveMsecs: 1000, maxSockets: Infinity });

/**
 * A `fetch` for the HTTP providers on Node.js, built on `node:http` / `node:https` with one
 * keep-alive agent per created function. It holds far less memory per request in flight than the
 * global `fetch` (undici), which matters with many concurrent turns. Pass it as any HTTP
 * provider's `fetch` option.
 *
 * It implements what the providers use: `method`, `headers` (a record, `Headers` or pairs), a
 * string or byte `body`, `signal` (aborting destroys the request; the promise rejects, or the
 * body stream errors, with the signal's reason) and `redirect` (never followed: a 3xx comes back
 * as the response; `redirect: 'error'` rejects). Network failures reject with
 * `TypeError('fetch failed', { cause })`, `cause.code` being Node's code (`ECONNREFUSED` …), as
 * undici does. Only `http:` and `https:` URLs.
 *
 * It does not read `HTTP_PROXY` / `HTTPS_PROXY`, ignores undici's global dispatcher and the
 * `dispatcher` option, and does not decompress (it sends no `Accept-Encoding`; an encoded
 * response is a network error). Behind a proxy, keep the default `fetch`.
 *
 * Node.js only, yet safe to import anywhere: `node:http`, `node:https` and `node:stream` load on
 * the first call.
 * @throws HarnessConfigError naming the invalid option, or when this runtime is not Node.js.
 * @example
 * ```ts
 * const model = createOpenAICompatibleModel({ baseUrl, model, apiKey, fetch: createNodeHttpFetch() });
 * const harness = createHarness({ model });
 * ```
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): FetchFunction {
  const agentOptions = resolveOptions(options);
  const processObject = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  if (typeof processObject?.versions?.node !== 'string') {
    throw new HarnessConfigError('createNodeHttpFetch needs Node.js (node:http); use the default fetch in this runtime.', { field: 'fetch' });
  }
  let modules: NodeHttpModules | undefined;
  let httpAgent: NodeAgentLike | undefined;
  let httpsAgent: NodeAgentLike | undefined;
  const agentFor = (module: NodeHttpModuleLike, secure: boolean): NodeAgentLike =>
    secure ? (httpsAgent ??= new module.Agent(agentOptions)) : (httpAgent ??= new module.Agent(agentOptions));
  const call = (loaded: NodeHttpModules, input: string, init: RequestInit | undefined): Promise<Response> => {
    try {
      return send(loaded, agentFor, input, init ?? {});
    } catch (error) {
      return Promise.reject(error);
    }
  };
  // Not an async function: once the modules are loaded, a request holds no extra promise or frame.
  return (input, init) =>
    modules === undefined ? loadNodeHttpModules().then((loaded) => call((modules = loaded), input, init)) : call(modules, input, init);
}

function resolveOptions(options: NodeHttpFetchOptions): NodeAgentOptions {
  if (typeof options !== 'object' || options === null) {
    throw new HarnessConfigError('createNodeHttpFetch options must be an object.', { field: 'options' });
  }
  const defaults = DEFAULT_NODE_HTTP_FETCH_OPTIONS;
  const { keepAlive = defaults.keepAlive, keepAliveMsecs = defaults.keepAliveMsecs, maxSockets = defaults.maxSockets } = options;
  if (typeof keepAlive !== 'boolean') throw new HarnessConfigError('keepAlive must be a boolean.', { field: 'keepAlive' });
  if (typeof keepAliveMsecs !== 'number' || !Number.isFinite(keepAliveMsecs) || keepAliveMsecs <= 0) {
    throw new HarnessConfigError('keepAliveMsecs must be a positive number of milliseconds.', { field: 'keepAliveMsecs' });
  }
  if (typeof maxSockets !== 'number' || !(Number.isInteger(maxSockets) || maxSockets === Number.POSITIVE_INFINITY) || maxSockets <= 0) {
    throw new HarnessConfigError('maxSockets must be a positive whole number or Infinity.', { field: 'maxSockets' });
  }
  return { keepAlive, keepAliveMsecs, maxSockets };
}

const encoder = /* @__PURE__ */ new TextEncoder();
const standardMethods = /* @__PURE__ */ new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH']);
const nullBodyStatuses = /* @__PURE__ */ new Set([204, 205, 304]);
// RFC 9110 reason-phrase: HTAB, SP, VCHAR, obs-text. `Response` refuses anything else.
const reasonPhrase = /^[\t\x20-\x7e\x80-\xff]*$/;

function send(
  modules: NodeHttpModules,
  agentFor: (module: NodeHttpModuleLike, secure: boolean) => NodeAgentLike,
  input: string,
  init: RequestInit,
): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted === true) return Promise.reject(abortReason(signal));
  const url = parseUrl(input);
  const secure = url.protocol === 'https:';
  const method = requestMethod(init.method);
  const headers = requestHeaders(init.headers);
  // Released once handed to Node, so a large request body is not kept alive by the response callbacks.
  let body = requestBody(init.body);
  const { redirect } = init;
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  else if (method === 'POST' || method === 'PUT' || method === 'PATCH') headers['content-length'] = '0';
  const module = secure ? modules.https : modules.http;
  return new Promise((resolve, reject) => {
    let settled = false;
    let incoming: NodeIncomingMessageLike | undefined;
    const detach = () => signal?.removeEventListener('abort', onAbort);
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      detach();
      reject(error);
    };
    function onAbort(): void {
      const reason = abortReason(signal);
      incoming?.destroy(reason);
      request.destroy(reason);
      fail(reason);
    }
    let request: ReturnType<NodeHttpModuleLike['request']>;
    try {
      request = module.request(
        {
          protocol: url.protocol,
          hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
          port: url.port === '' ? undefined : url.port,
          path: `${url.pathname}${url.search}`,
          method,
          headers,
          agent: agentFor(module, secure),
        },
        (response) => {
          incoming = response;
          if (settled) {
            response.destroy();
            return;
          }
          let result: Response;
          try {
            result = toResponse(response, modules, method, redirect);
          } catch (error) {
            response.destroy();
            request.destroy();
            fail(new TypeError('fetch failed', { cause: error }));
            return;
          }
          settled = true;
          response.once('close', detach);
          resolve(result);
        },
      );
    } catch (error) {
      // Node validates header names and values and the method synchronously; its messages name the header, never its value.
      fail(new TypeError('fetch failed: invalid request', { cause: error }));
      return;
    }
    request.on('error', (error) => fail(signal?.aborted === true ? abortReason(signal) : new TypeError('fetch failed', { cause: error })));
    signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body);
    body = undefined;
  });
}

/** The URL, checked; error messages never quote it (it may carry credentials or a query). */
function parseUrl(input: unknown): URL {
  let url: URL;
  try {
    url = input instanceof URL ? input : new URL(String(input));
  } catch {
    throw new TypeError('createNodeHttpFetch: invalid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`createNodeHttpFetch supports only http: and https: URLs, not ${url.protocol.slice(0, 20)}`);
  }
  if (url.username !== '' || url.password !== '') throw new TypeError('createNodeHttpFetch: the URL must not include credentials.');
  return url;
}

function requestMethod(method: string | undefined): string {
  if (method === undefined) return 'GET';
  const upper = method.toUpperCase();
  return standardMethods.has(upper) ? upper : method;
}

/** Headers as a prototype-free record of lower-cased names; repeated names are joined as `Headers` does. */
function requestHeaders(init: HeadersInit | undefined): Record<string, string> {
  const headers = Object.create(null) as Record<string, string>;
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const previous = headers[key];
    headers[key] = previous === undefined ? String(value) : `${previous}, ${String(value)}`;
  };
  if (init === undefined || init === null) return headers;
  if (init instanceof Headers) init.forEach((value, name) => add(name, value));
  else if (Array.isArray(init)) for (const [name, value] of init as [string, string][]) add(String(name), value);
  else for (const [name, value] of Object.entries(init)) add(name, value);
  return headers;
}

function requestBody(body: BodyInit | null | undefined): Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('createNodeHttpFetch sends only string or byte (Uint8Array, ArrayBuffer) bodies.');
}

/** The `Response` for a response head; throws the cause of a network error for one it cannot represent. */
function toResponse(incoming: NodeIncomingMessageLike, modules: NodeHttpModules, method: string, redirect: RequestRedirect | undefined): Response {
  const status = incoming.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`unsupported HTTP status ${status}`);
  if (redirect === 'error' && status >= 300 && status < 400) throw new Error('unexpected redirect');
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  const nullBody = method === 'HEAD' || nullBodyStatuses.has(status);
  const encoding = headers.get('content-encoding');
  if (!nullBody && encoding !== null && encoding.trim().toLowerCase() !== 'identity') {
    throw new Error(`content-encoding ${encoding.slice(0, 40)} is not decoded by createNodeHttpFetch`);
  }
  const statusText = incoming.statusMessage ?? '';
  const init = { status, statusText: reasonPhrase.test(statusText) ? statusText : '', headers };
  if (nullBody) {
    incoming.resume();
    return new Response(null, init);
  }
  return new Response(modules.toWeb(incoming), init);
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
