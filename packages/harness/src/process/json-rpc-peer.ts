import { HarnessError } from '../core/errors/harness-error.js';
import * as v from '../shared/validation/index.js';
import { describeError } from '../shared/describe-error.js';
import { lazySchema } from '../shared/schemas/lazy-schema.js';
import { hasErrorMarker } from '../core/errors/has-error-marker.js';

/** A JSON-RPC id. Engines start theirs at 0, so `0` is as good an id as any. */
export type JsonRpcId = number | string;

/** A request the other side sent us; answer it with `respond` or `respondError`. */
export interface JsonRpcIncomingRequest {
  id: JsonRpcId;
  method: string;
  params: unknown;
}

/** Options of {@link JsonRpcPeer}. */
export interface JsonRpcPeerOptions {
  /** Writes one serialised message (one line). Returns false when the line could not be written. */
  send: (line: string) => boolean;
  /** A request from the other side. It stays pending until answered or until the peer closes. */
  onRequest: (request: JsonRpcIncomingRequest) => void;
  /** A notification from the other side. */
  onNotification: (method: string, params: unknown) => void;
  /** A line that was not a valid JSON-RPC message, or a response nobody waits for. */
  onProtocolError?: ((message: string) => void) | undefined;
  /** Most outgoing requests awaiting an answer at once (default 256); more reject with `JsonRpcPeerError`. */
  maxPendingRequests?: number | undefined;
  /** Most incoming requests awaiting our answer at once (default 64); more are answered with an error. */
  maxIncomingRequests?: number | undefined;
  /** Whether messages carry `"jsonrpc": "2.0"` (default true; codex app-server leaves it out). */
  jsonrpcField?: boolean | undefined;
}

const remoteMarker = Symbol.for('agent-assistant.error.JsonRpcRemoteError');
const peerMarker = Symbol.for('agent-assistant.error.JsonRpcPeerError');

/**
 * An error answer from the other side (an engine refused or failed a request). Code
 * `HARNESS_ERR_JSON_RPC_REMOTE`; the engine's own JSON-RPC error code is `rpcCode`. The session
 * adapters return it as a `failed` result.
 */
export class JsonRpcRemoteError extends HarnessError {
  /** The JSON-RPC error code the other side sent. */
  readonly rpcCode: number;
  /** The error's `data`, as sent. */
  readonly data: unknown;

  constructor(rpcCode: number, message: string, data: unknown) {
    super('HARNESS_ERR_JSON_RPC_REMOTE', message);
    Object.defineProperty(this, remoteMarker, { value: true });
    this.name = 'JsonRpcRemoteError';
    this.rpcCode = rpcCode;
    this.data = data;
  }

  /** True for any `JsonRpcRemoteError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is JsonRpcRemoteError {
    return hasErrorMarker(value, remoteMarker);
  }
}

/**
 * Why a request could not complete on our side: the peer closed, too many pending, a write
 * failed, or aborted. Code `HARNESS_ERR_JSON_RPC_PEER`; the session adapters return it as a
 * `failed` result.
 */
export class JsonRpcPeerError extends HarnessError {
  /** What went wrong. */
  readonly reason: 'closed' | 'too_many_pending' | 'write_failed' | 'aborted';

  constructor(reason: JsonRpcPeerError['reason'], message: string) {
    super('HARNESS_ERR_JSON_RPC_PEER', message);
    Object.defineProperty(this, peerMarker, { value: true });
    this.name = 'JsonRpcPeerError';
    this.reason = reason;
  }

  /** True for any `JsonRpcPeerError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is JsonRpcPeerError {
    return hasErrorMarker(value, peerMarker);
  }
}

const DEFAULT_MAX_PENDING = 256;
const DEFAULT_MAX_INCOMING = 64;
const MAX_ID_LENGTH = 256;

const messageSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({
    jsonrpc: v.optional(v.literal('2.0')),
    id: v.optional(v.nullable(v.union([v.int(), v.string().check(v.maxLength(MAX_ID_LENGTH))]))),
    method: v.optional(v.string().check(v.minLength(1), v.maxLength(MAX_ID_LENGTH))),
    params: v.optional(v.unknown()),
    result: v.optional(v.unknown()),
    error: v.optional(
      v.object({ code: v.number(), message: v.string(), data: v.optional(v.unknown()) }),
    ),
  }),
);

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  cleanup: () => void;
}

/**
 * JSON-RPC 2.0 over newline-delimited JSON, both ways: our requests (ids from 0) with a bounded
 * pending map, notifications, and requests from the other side that stay open until answered.
 * Every incoming line is validated; a bad one is reported, never thrown. `close` rejects every
 * pending request and forgets the open incoming ones.
 */
export class JsonRpcPeer {
  private nextId = 0;
  private readonly pending = new Map<JsonRpcId, Pending>();
  private readonly incoming = new Map<string, JsonRpcIncomingRequest>();
  private closedReason: string | undefined;
  private readonly maxPending: number;
  private readonly maxIncoming: number;
  private readonly jsonrpcField: boolean;

  constructor(private readonly options: JsonRpcPeerOptions) {
    this.maxPending = options.maxPendingRequests ?? DEFAULT_MAX_PENDING;
    this.maxIncoming = options.maxIncomingRequests ?? DEFAULT_MAX_INCOMING;
    this.jsonrpcField = options.jsonrpcField ?? true;
  }

  /** True once `close` was called. */
  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Requests from the other side still waiting for our answer. */
  openIncomingRequests(): JsonRpcIncomingRequest[] {
    return [...this.incoming.values()];
  }

  /** Sends a request; resolves with its `result`, rejects with `JsonRpcRemoteError` or `JsonRpcPeerError`. */
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.closedReason !== undefined) return Promise.reject(new JsonRpcPeerError('closed', this.closedReason));
    if (signal?.aborted) return Promise.reject(new JsonRpcPeerError('aborted', `${method} was aborted before it was sent.`));
    if (this.pending.size >= this.maxPending) {
      return Promise.reject(new JsonRpcPeerError('too_many_pending', `More than ${this.maxPending} requests are waiting for an answer.`));
    }
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(new JsonRpcPeerError('aborted', `${method} was aborted.`));
      };
      const cleanup = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, { resolve, reject, cleanup });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (!this.write({ id, method, ...(params === undefined ? {} : { params }) })) {
        this.pending.delete(id);
        cleanup();
        reject(new JsonRpcPeerError('write_failed', `${method} could not be sent: the engine's input is closed.`));
      }
    });
  }

  /** Sends a notification. False when it could not be written. */
  notify(method: string, params?: unknown): boolean {
    if (this.closedReason !== undefined) return false;
    return this.write({ method, ...(params === undefined ? {} : { params }) });
  }

  /** Answers an open incoming request. False when no such request is open (or the write failed). */
  respond(id: JsonRpcId, result: unknown): boolean {
    if (!this.takeIncoming(id)) return false;
    return this.write({ id, result });
  }

  /** Answers an open incoming request with an error. False when no such request is open. */
  respondError(id: JsonRpcId, code: number, message: string, data?: unknown): boolean {
    if (!this.takeIncoming(id)) return false;
    return this.write({ id, error: { code, message, ...(data === undefined ? {} : { data }) } });
  }

  /** Feeds one line received from the other side. Never throws. */
  receive(line: string): void {
    if (this.closedReason !== undefined) return;
    const trimmed = line.trim();
    if (trimmed === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      this.protocolError('Received a line that is not JSON.');
      return;
    }
    const parsed = messageSchema.safeParse(value);
    if (!parsed.success) {
      this.protocolError('Received a message that is not JSON-RPC 2.0.');
      return;
    }
    const message = parsed.data;
    const id = message.id ?? undefined;
    if (message.method !== undefined) {
      if (id === undefined) this.deliver(() => this.options.onNotification(message.method!, message.params));
      else this.acceptRequest({ id, method: message.method, params: message.params });
      return;
    }
    if (id === undefined) {
      this.protocolError('Received a response without an id.');
      return;
    }
    const waiting = this.pending.get(id);
    if (waiting === undefined) {
      this.protocolError(`Received a response to ${JSON.stringify(id)}, which no request is waiting for.`);
      return;
    }
    this.pending.delete(id);
    waiting.cleanup();
    if (message.error !== undefined) waiting.reject(new JsonRpcRemoteError(message.error.code, message.error.message, message.error.data));
    else waiting.resolve(message.result);
  }

  /** Rejects every pending request with `reason` and refuses new ones. Idempotent. */
  close(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    this.incoming.clear();
    for (const entry of waiting) {
      entry.cleanup();
      entry.reject(new JsonRpcPeerError('closed', reason));
    }
  }

  private acceptRequest(request: JsonRpcIncomingRequest): void {
    const key = incomingKey(request.id);
    if (this.incoming.has(key)) {
      this.write({ id: request.id, error: { code: -32600, message: 'A request with this id is already open.' } });
      return;
    }
    if (this.incoming.size >= this.maxIncoming) {
      this.write({ id: request.id, error: { code: -32000, message: 'Too many open requests.' } });
      return;
    }
    this.incoming.set(key, request);
    this.deliver(() => this.options.onRequest(request));
  }

  private takeIncoming(id: JsonRpcId): boolean {
    if (this.closedReason !== undefined) return false;
    return this.incoming.delete(incomingKey(id));
  }

  private write(message: Record<string, unknown>): boolean {
    const line = JSON.stringify(this.jsonrpcField ? { jsonrpc: '2.0', ...message } : message);
    try {
      return this.options.send(line);
    } catch {
      return false;
    }
  }

  private deliver(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.protocolError(`A listener failed: ${describeError(error)}`);
    }
  }

  private protocolError(message: string): void {
    try {
      this.options.onProtocolError?.(message);
    } catch {
      // A faulty listener is ignored.
    }
  }
}

function incomingKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}
