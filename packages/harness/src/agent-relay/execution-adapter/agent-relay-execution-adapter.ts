import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { checkExecutionRequest } from '../../execution/execution-request-schema.js';
import { negotiateCapabilities } from '../../execution/negotiate-capabilities.js';
import type {
  ExecutionAdapter,
  ExecutionCapabilities,
  ExecutionNegotiation,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
} from '../../execution/types.js';
import { describeError } from '../../shared/describe-error.js';
import { encodeExecutionCancelMessage } from '../protocol/execution-cancel-message.js';
import { encodeExecutionRequestMessage } from '../protocol/execution-request-message.js';
import { hasNoControlCharacters } from '../protocol/control-characters.js';
import type { ExecutionCancelReason } from '../protocol/message-types.js';
import type { OwnedRelay } from '../protocol/owned-relay.js';
import type { RelayTransport } from '../protocol/relay-transport.js';
import type { AgentRelayExecutionAdapterOptions } from './agent-relay-execution-adapter-options.js';
import { awaitRelayReply, type RelayWait } from './internal/await-relay-reply.js';
import { forwardRelayEvents } from './internal/forward-relay-events.js';
import { loadDefaultRelay } from './internal/load-default-relay.js';
import { relayFailure, relayReplyResult, type RelayTurn } from './internal/relay-result.js';
import { resolveAgentRelayOptions, type ResolvedAgentRelayOptions } from './internal/resolve-adapter-options.js';
import { defineExecutionAdapter } from '../../core/define-execution-adapter.js';

const cloneCapabilities = (capabilities: ExecutionCapabilities): ExecutionCapabilities => ({
  ...capabilities,
  ...(capabilities.notes === undefined ? {} : { notes: [...capabilities.notes] }),
});

/**
 * Runs each turn on a remote worker over Agent Relay: sends an
 * `agent-assistant.execution-request.v1` message carrying the whole `ExecutionRequest` to
 * `workerName`, and waits for the `agent-assistant.execution-result.v1` reply from that worker, on
 * the same thread, carrying the same request id. Worker shorthand such as
 * `{ status: "ok", answer: "…" }` or `{ status: "error", error: "…" }` is accepted; a failure
 * ends the wait at once. Malformed, foreign and misaddressed messages are ignored and counted in
 * the result's trace and `metadata.relay.ignoredMessages`. No reply within `timeoutMs` (or the
 * request's shorter `timeoutMs`) is `failed` / `timeout`, retryable; the turn's signal ends the wait
 * too. On a timeout or a cancel the worker is sent an `agent-assistant.execution-cancel.v1`
 * message. Many turns may run at once on one adapter. `execute` never throws.
 *
 * When the harness streams the turn (`streamTurn`), the request asks the worker for its live
 * events (`stream: true`), and the `agent-assistant.execution-event.v1` messages it sends before
 * the result are streamed as they arrive (`text_delta`, `tool_activity`, `plan_update`,
 * `approval_requested`), in order, repeats dropped; the result still carries the whole answer.
 *
 * The main entry stays Worker-safe: with an injected `relay` nothing else loads; without one, the
 * adapter loads `RelayAdapter` (`@agent-assistant/harness/agent-relay`, Node.js, optional peer
 * `@agent-relay/harness-driver`) on the first `execute` and stops it in {@link shutdown}.
 *
 * @example
 * const adapter = new AgentRelayExecutionAdapter({
 *   cwd: process.cwd(),
 *   channelId: 'nightcto-local-byoh',
 *   workerName: 'nightcto-local-harness',
 *   orchestratorName: 'nightcto-local-chat',
 * });
 * const harness = createHarness({ backend: adapter });
 * const result = await harness.runTurn(input);
 * await adapter.shutdown();
 */
export class AgentRelayExecutionAdapter implements ExecutionAdapter {
  /** The backend id of the results (`agent-relay` unless configured). */
  readonly backendId: string;
  private readonly options: ResolvedAgentRelayOptions;
  private owned: Promise<OwnedRelay> | undefined;
  private ownedRelay: OwnedRelay | undefined;
  private readonly waits = new Set<RelayWait>();
  private closed = false;

  /** @throws HarnessConfigError when an option is invalid; `field` names it. */
  constructor(options: AgentRelayExecutionAdapterOptions) {
    this.options = resolveAgentRelayOptions(options);
    this.backendId = this.options.backendId;
    defineExecutionAdapter(this);
  }

  /** A copy of the declared capabilities. */
  describeCapabilities(): ExecutionCapabilities {
    return cloneCapabilities(this.options.capabilities);
  }

  /** The standard negotiation against the declared capabilities. */
  negotiate(request: ExecutionRequest): ExecutionNegotiation {
    return negotiateCapabilities(this.options.capabilities, request);
  }

  /** Sends the request to the worker and waits for its reply. Resolves with a result; never rejects. */
  async execute(request: ExecutionRequest, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const config = this.options;
    const turn: RelayTurn = {
      backendId: config.backendId,
      channelId: config.channelId,
      workerName: config.workerName,
      orchestratorName: config.orchestratorName,
      startedAt: Date.now(),
      degradation: [],
    };
    const fail = (message: string, retryable: boolean) =>
      relayFailure(turn, Date.now(), { code: 'backend_execution_error', message, retryable });

    const checked = checkExecutionRequest(request, config.backendId);
    if (!checked.ok) return checked.result;
    const clean = checked.request;
    if (![clean.turnId, clean.threadId ?? ''].every(hasNoControlCharacters)) {
      // A worker refuses such ids on the wire; better a clear failure now than a timeout later.
      return relayFailure(turn, Date.now(), { code: 'invalid_request', message: 'The turn id and thread id must have no control characters.', retryable: false });
    }
    let negotiation: ExecutionNegotiation;
    try {
      negotiation = this.negotiate(clean);
    } catch (error) {
      return fail(`negotiate failed: ${describeError(error)}`, false);
    }
    if (!negotiation.supported) {
      const blocking = negotiation.reasons.filter((reason) => reason.severity === 'blocking');
      return relayFailure(
        { ...turn, degradation: negotiation.reasons },
        Date.now(),
        { code: 'unsupported_capability', message: blocking.map((reason) => reason.message).join(' '), retryable: false },
        { status: 'unsupported', degraded: false },
      );
    }
    turn.degradation = negotiation.reasons.filter((reason) => reason.severity !== 'blocking');
    if (this.closed) return fail('The adapter was shut down.', false);
    if (options.signal?.aborted === true) return fail('The turn was cancelled before the request was sent.', true);

    let transport: RelayTransport | undefined;
    try {
      transport = await untilAborted(this.transport(), options.signal);
    } catch (error) {
      // No broker found, a missing peer or a runtime without Node.js needs a fix, not a retry.
      return fail(`Could not reach the Agent Relay broker: ${describeError(error)}`, !HarnessConfigError.isInstance(error));
    }
    if (transport === undefined) return fail('The turn was cancelled before the request was sent.', true);

    const requestId = globalThis.crypto.randomUUID();
    const threadId = clean.threadId ?? clean.turnId;
    const timeoutMs = clean.timeoutMs === undefined ? config.timeoutMs : Math.min(config.timeoutMs, Math.ceil(clean.timeoutMs));
    Object.assign(turn, { requestId, threadId, timeoutMs });
    const sentAt = Date.now();
    let body: string;
    try {
      body = encodeExecutionRequestMessage({
        requestId,
        turnId: clean.turnId,
        threadId,
        replyTo: { agentId: config.orchestratorName, channelId: config.channelId },
        sentAt: new Date(sentAt).toISOString(),
        deadline: new Date(sentAt + timeoutMs).toISOString(),
        request: clean,
        stream: options.onEvent !== undefined,
      });
    } catch (error) {
      return fail(`The request could not be encoded as JSON: ${describeError(error)}`, false);
    }

    const events = options.onEvent === undefined ? undefined : forwardRelayEvents(options.onEvent);
    if (events !== undefined) turn.events = events.stats;
    let wait: RelayWait;
    try {
      wait = awaitRelayReply({
        transport,
        orchestratorName: config.orchestratorName,
        workerName: config.workerName,
        requestId,
        turnId: clean.turnId,
        threadId,
        timeoutMs,
        maxReplyChars: config.maxReplyChars,
        signal: options.signal,
        now: Date.now,
        onEvents: events?.receive,
      });
    } catch (error) {
      return fail(`Could not subscribe to replies: ${describeError(error)}`, true);
    }
    turn.ignored = wait.ignored;
    this.waits.add(wait);
    try {
      const sent = Promise.resolve()
        .then(() => transport.send({ from: config.orchestratorName, to: config.workerName, text: body, threadId, channelId: config.channelId }))
        .then(
          () => ({ kind: 'sent' as const }),
          (error: unknown) => ({ kind: 'send_failed' as const, error }),
        );
      const first = await Promise.race([sent, wait.outcome]);
      if (first.kind === 'send_failed') {
        wait.dispose();
        return fail(`Sending the request to worker "${config.workerName}" failed: ${describeError(first.error)}`, true);
      }
      const outcome = await wait.outcome;
      if (outcome.kind === 'reply') return relayReplyResult(turn, outcome);
      if (outcome.kind === 'connection_lost') {
        return relayFailure(turn, outcome.at, {
          code: 'backend_execution_error',
          message: `Lost the connection to the relay while waiting for worker "${config.workerName}": ${describeError(outcome.error)}`,
          retryable: true,
        });
      }
      const reason: ExecutionCancelReason = outcome.kind === 'timeout' ? 'timeout' : 'cancelled';
      this.sendCancel(transport, { requestId, turnId: clean.turnId, threadId, reason });
      if (outcome.kind === 'timeout') {
        return relayFailure(turn, outcome.at, {
          code: 'timeout',
          message: `No reply from worker "${config.workerName}" within ${timeoutMs} ms.`,
          retryable: true,
        });
      }
      return relayFailure(turn, outcome.at, {
        code: 'backend_execution_error',
        message: this.closed ? 'The adapter was shut down before the worker replied.' : 'The turn was cancelled before the worker replied.',
        retryable: true,
      });
    } finally {
      this.waits.delete(wait);
    }
  }

  /**
   * Ends every wait in progress (those turns resolve as failed) and stops the relay the adapter
   * started itself; an injected relay is left alone. Later `execute` calls fail. Idempotent.
   */
  async shutdown(): Promise<void> {
    this.closed = true;
    for (const wait of [...this.waits]) wait.dispose();
    const relay = this.ownedRelay;
    this.owned = undefined;
    this.ownedRelay = undefined;
    await relay?.shutdown();
  }

  private transport(): Promise<RelayTransport> {
    if (this.options.relay !== undefined) return Promise.resolve(this.options.relay);
    if (this.owned === undefined) {
      const starting = (async () => {
        const relay = await loadDefaultRelay({ cwd: this.options.cwd, channelId: this.options.channelId });
        this.ownedRelay = relay;
        if (this.closed) throw new Error('The adapter was shut down.');
        await relay.start();
        return relay;
      })();
      this.owned = starting;
      starting.catch(() => {
        if (this.owned === starting) {
          this.owned = undefined;
          this.ownedRelay = undefined;
        }
      });
    }
    return this.owned;
  }

  private sendCancel(transport: RelayTransport, ids: { requestId: string; turnId: string; threadId: string; reason: ExecutionCancelReason }) {
    const text = encodeExecutionCancelMessage({ ...ids, sentAt: new Date().toISOString() });
    Promise.resolve()
      .then(() => transport.send({ from: this.options.orchestratorName, to: this.options.workerName, text, threadId: ids.threadId, channelId: this.options.channelId }))
      .catch(() => {
        // Best effort: a worker that misses the cancel still stops at the request's deadline.
      });
  }
}

/** Resolves with `promise`'s value, or with `undefined` as soon as `signal` aborts (the promise runs on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Creates an {@link AgentRelayExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createAgentRelayExecutionAdapter(options: AgentRelayExecutionAdapterOptions): AgentRelayExecutionAdapter {
  return new AgentRelayExecutionAdapter(options);
}
