/** A `fetch`-compatible function. Inject one to route requests through your own transport. */
export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/** One HTTP POST with a JSON body. */
export interface PostJsonRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  /** The JSON body, already serialised. */
  body: string;
  signal: AbortSignal;
  /** Used instead of the global `fetch` when given. */
  fetch?: FetchFunction;
  /** Node only: an undici `Dispatcher` (e.g. `ProxyAgent`) passed through to `fetch`'s init. */
  dispatcher?: object;
}

/**
 * Sends one POST with `redirect: 'manual'`, so a 3xx answer comes back as it is and no secret
 * header ever reaches another URL. This is the only place in `providers/` that calls the global
 * `fetch`; it is looked up at call time (so hosts and tests can replace it) and called on
 * `globalThis` (Workers reject a detached `fetch`).
 */
export function postJson(request: PostJsonRequest): Promise<Response> {
  const init: RequestInit & { dispatcher?: object } = {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...request.headers },
    body: request.body,
    signal: request.signal,
    // Never follow: a redirect would carry the key (and any secret header) to wherever it points.
    redirect: 'manual',
  };
  if (request.dispatcher !== undefined) init.dispatcher = request.dispatcher;
  if (request.fetch !== undefined) return request.fetch(request.url, init);
  return globalThis.fetch(request.url, init);
}
