import * as v from '../../shared/validation/index.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { memo } from '../../shared/schemas/lazy-schema.js';
import { describeError } from '../../shared/describe-error.js';
import { RecentIds } from '../protocol/recent-ids.js';
import type { RelayInboundMessage, RelaySendInput, RelayTransport } from '../protocol/relay-transport.js';
import { RelayConnectionError } from './errors/relay-connection-error.js';
import type { BrokerEventLike, HarnessDriverClientLike } from './internal/harness-driver-types.js';
import { discoverRelayConnection, type RelayConnection } from './internal/discover-connection.js';
import { loadHarnessDriver } from './internal/load-harness-driver.js';
import { relayInboundEventSchema } from './internal/relay-event-schema.js';
import { loadRelayNodeModules } from './internal/relay-node-modules.js';
import type { RelayAdapterOptions } from './relay-adapter-options.js';

/** Counters of what the event stream brought, for diagnostics and tests. */
export interface RelayAdapterStats {
  /** Inbound messages handed to at least one subscriber. */
  delivered: number;
  /** Inbound messages whose event id was seen before (replays after a reconnect, duplicates). */
  duplicates: number;
  /** `relay_inbound` events with an unreadable shape. */
  malformed: number;
}

/** The client's open event WebSocket, if this client version exposes it (harness-driver 9.x keeps it at `transport.ws`). */
function eventSocketOf(client: HarnessDriverClientLike): { terminate(): void } | undefined {
  try {
    const transport = (client as unknown as { transport?: { ws?: unknown } }).transport;
    const socket = transport?.ws as { terminate?: unknown } | null | undefined;
    return typeof socket?.terminate === 'function' ? (socket as { terminate(): void }) : undefined;
  } catch {
    return undefined;
  }
}

const optionsSchema = /* @__PURE__ */ memo(() =>
  v.object({
    cwd: v.optional(v.string().check(v.minLength(1))),
    channels: v.optional(v.array(v.string().check(v.minLength(1)))),
    baseUrl: v.optional(v.string()),
    apiKey: v.optional(v.string().check(v.minLength(1))),
    stateDir: v.optional(v.string().check(v.minLength(1))),
    workspaceId: v.optional(v.string().check(v.minLength(1))),
    requestTimeoutMs: v.optional(v.int().check(v.positive(), v.lte(2_147_483_647))),
    startBroker: v.optional(
      v.union([v.boolean(), v.object({ binaryPath: v.optional(v.string().check(v.minLength(1))), env: v.optional(v.record(v.string(), v.string())) })]),
    ),
    maxRememberedEventIds: v.optional(v.int().check(v.positive())),
    healthCheckIntervalMs: v.optional(v.int().check(v.positive(), v.lte(2_147_483_647))),
  }),
);

/**
 * An Agent Relay connection over the broker client of `@agent-relay/harness-driver` (an optional
 * peer, loaded on `start`). Implements `RelayTransport`, so it can carry an
 * `AgentRelayExecutionAdapter` or a worker bridge.
 *
 * `start()` finds the broker — explicit `baseUrl`/`apiKey`, else
 * `$AGENT_RELAY_STATE_DIR/connection.json`, else `{cwd}/.agentworkforce/relay/connection.json`,
 * else the legacy `{cwd}/.agent-relay/connection.json` (a file whose broker pid is dead is skipped)
 * — checks that it answers, and opens its event stream. The broker broadcasts every event to every
 * client; `subscribe(name, …)` delivers only `relay_inbound` messages whose target is `name`, each
 * event id once. When the stream drops, the client reconnects every 2 s and the broker replays
 * what was missed (duplicates are dropped here). `shutdown()` closes the stream, and stops the
 * broker only if this adapter started it (`startBroker`). Node.js only.
 *
 * @example
 * const relay = new RelayAdapter({ cwd: process.cwd(), channels: ['specialists'] });
 * await relay.start();
 * const stop = relay.subscribe('my-name', (message) => console.log(message.from, message.text));
 * await relay.send({ from: 'my-name', to: 'specialist-worker', text: 'hello', threadId: 't-1' });
 * stop();
 * await relay.shutdown();
 */
export class RelayAdapter implements RelayTransport {
  private readonly options: RelayAdapterOptions;
  private readonly listeners = new Map<string, Set<(message: RelayInboundMessage) => void>>();
  private readonly recent: RecentIds;
  private readonly counters: RelayAdapterStats = { delivered: 0, duplicates: 0, malformed: 0 };
  private client: HarnessDriverClientLike | undefined;
  private stopEvents: (() => void) | undefined;
  private ownsBroker = false;
  private starting: Promise<void> | undefined;
  private resolved: RelayConnection | undefined;
  private closed = false;
  private readonly watchers = new Set<(error: Error) => void>();
  private watchdog: ReturnType<typeof setTimeout> | undefined;

  /** @throws HarnessConfigError when an option is invalid; `field` names it. */
  constructor(options: RelayAdapterOptions = {}) {
    let parsed;
    try {
      parsed = optionsSchema().safeParse(options);
    } catch (error) {
      throw new HarnessConfigError(`RelayAdapter options could not be read (${describeError(error)}).`, { field: 'options' });
    }
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path.map(String).join('.') || 'options';
      throw new HarnessConfigError(`RelayAdapter ${formatIssues(parsed.error.issues)}.`, { field });
    }
    this.options = parsed.data as RelayAdapterOptions;
    this.recent = new RecentIds(this.options.maxRememberedEventIds ?? 10_000);
  }

  /** Where the adapter is connected (`baseUrl`, and `source`: `options`, a connection file, or `started`), once started. */
  get connection(): { baseUrl: string; source: string } | undefined {
    return this.resolved === undefined ? undefined : { baseUrl: this.resolved.baseUrl, source: this.resolved.source };
  }

  /** A copy of the event counters. */
  stats(): RelayAdapterStats {
    return { ...this.counters };
  }

  /**
   * Connects to the broker and opens the event stream. Idempotent; concurrent calls share one start.
   * @throws HarnessConfigError when no broker is found (listing the paths tried) or the peer is missing.
   * @throws RelayConnectionError when the broker does not answer, or after `shutdown()`.
   */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(new RelayConnectionError('RelayAdapter was shut down.'));
    if (this.starting === undefined) {
      const starting = this.connect();
      this.starting = starting;
      starting.catch(() => {
        if (this.starting === starting) this.starting = undefined;
      });
    }
    return this.starting;
  }

  /**
   * Sends one message through the broker (starting first if needed).
   * @throws RelayConnectionError when the broker refuses or cannot be reached.
   */
  async send(message: RelaySendInput): Promise<void> {
    await this.start();
    const client = this.client;
    if (client === undefined || this.closed) throw new RelayConnectionError('RelayAdapter was shut down.');
    let reply: unknown;
    try {
      reply = await client.sendMessage({
        to: message.to,
        from: message.from,
        text: message.text,
        ...(message.threadId === undefined ? {} : { threadId: message.threadId }),
        ...(this.options.workspaceId === undefined ? {} : { workspaceId: this.options.workspaceId }),
      });
    } catch (error) {
      throw new RelayConnectionError(`The broker did not accept the message to "${message.to}": ${describeError(error)}`, {
        baseUrl: this.resolved?.baseUrl,
        cause: error,
      });
    }
    const answer = typeof reply === 'object' && reply !== null ? (reply as Record<string, unknown>) : {};
    if (answer['success'] === false || answer['event_id'] === 'unsupported_operation') {
      throw new RelayConnectionError(`The broker refused the message to "${message.to}".`, { baseUrl: this.resolved?.baseUrl });
    }
  }

  /** Delivers the `relay_inbound` messages whose target is `name` to `listener`, until the returned function is called. */
  subscribe(name: string, listener: (message: RelayInboundMessage) => void): () => void {
    let set = this.listeners.get(name);
    if (set === undefined) this.listeners.set(name, (set = new Set()));
    const entry = (message: RelayInboundMessage) => listener(message);
    set.add(entry);
    return () => {
      const current = this.listeners.get(name);
      if (current === undefined) return;
      current.delete(entry);
      if (current.size === 0) this.listeners.delete(name);
    };
  }

  /**
   * Calls `listener` when the broker stops answering while anyone watches: the adapter checks the
   * broker's `/health` every `healthCheckIntervalMs` (default 1 000) only while at least one
   * watcher is registered. Also called once on `shutdown()`. Returns the function that stops watching.
   */
  watchConnection(listener: (error: Error) => void): () => void {
    const entry = (error: Error) => listener(error);
    this.watchers.add(entry);
    this.armWatchdog();
    return () => {
      this.watchers.delete(entry);
      if (this.watchers.size === 0 && this.watchdog !== undefined) {
        clearTimeout(this.watchdog);
        this.watchdog = undefined;
      }
    };
  }

  /**
   * Closes the event stream and forgets every subscriber; stops the broker only if this adapter
   * started it. Does not wait for a start in flight (that start fails, releasing what it opened,
   * within `requestTimeoutMs`). Idempotent; never throws.
   */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.watchdog !== undefined) clearTimeout(this.watchdog);
    this.watchdog = undefined;
    this.notifyWatchers(new RelayConnectionError('RelayAdapter was shut down.', { baseUrl: this.resolved?.baseUrl }));
    // A start still in flight is not awaited: it sees `closed` when it resumes and lets go of its client.
    this.listeners.clear();
    this.stopEvents?.();
    this.stopEvents = undefined;
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    // The client closes its event socket politely and the 9.1.6 broker never answers the close
    // frame, which would keep the socket (and a 30 s timer) alive: terminate it after closing.
    const socket = eventSocketOf(client);
    try {
      if (this.ownsBroker) await client.shutdown();
      else client.disconnect();
    } catch {
      // Nothing left to do: the stream is closed either way.
    }
    try {
      socket?.terminate();
    } catch {
      // Already gone.
    }
  }

  private async connect(): Promise<void> {
    const node = await loadRelayNodeModules().catch((error: unknown) => {
      throw new HarnessConfigError(`RelayAdapter needs Node.js (${describeError(error)}).`, { field: 'relay', cause: error });
    });
    const driver = await loadHarnessDriver();
    const requestTimeoutMs = this.options.requestTimeoutMs ?? 10_000;
    let client: HarnessDriverClientLike;
    try {
      const connection = await discoverRelayConnection(node, this.options);
      client = new driver.HarnessDriverClient({ baseUrl: connection.baseUrl, requestTimeoutMs, ...(connection.apiKey === undefined ? {} : { apiKey: connection.apiKey }) });
      this.resolved = connection;
      try {
        await client.healthCheck();
      } catch (error) {
        throw new RelayConnectionError(`The Agent Relay broker at ${connection.baseUrl} (from ${connection.source}) does not answer: ${describeError(error)}`, {
          baseUrl: connection.baseUrl,
          cause: error,
        });
      }
    } catch (error) {
      const startBroker = this.options.startBroker;
      if (!HarnessConfigError.isInstance(error) || error.field !== 'cwd' || startBroker === undefined || startBroker === false) throw error;
      const spawnOptions = startBroker === true ? {} : startBroker;
      try {
        client = await driver.HarnessDriverClient.spawn({
          cwd: node.resolve(this.options.cwd ?? node.cwd()),
          requestTimeoutMs,
          ...(this.options.channels === undefined ? {} : { channels: this.options.channels }),
          ...(spawnOptions.binaryPath === undefined ? {} : { binaryPath: spawnOptions.binaryPath }),
          ...(spawnOptions.env === undefined ? {} : { env: spawnOptions.env }),
        });
      } catch (spawnError) {
        throw new RelayConnectionError(`No broker was found and starting one failed: ${describeError(spawnError)}`, { cause: spawnError });
      }
      this.ownsBroker = true;
      this.resolved = { baseUrl: typeof client.baseUrl === 'string' ? client.baseUrl : 'unknown', apiKey: undefined, source: 'started' };
    }
    if (this.closed) {
      if (this.ownsBroker) await client.shutdown().catch(() => undefined);
      else client.disconnect();
      throw new RelayConnectionError('RelayAdapter was shut down while starting.');
    }
    this.client = client;
    this.stopEvents = client.onEvent((event) => this.onEvent(event));
    client.connectEvents();
  }

  private armWatchdog(): void {
    if (this.watchdog !== undefined || this.watchers.size === 0 || this.closed) return;
    this.watchdog = setTimeout(() => {
      void this.checkHealth();
    }, this.options.healthCheckIntervalMs ?? 1_000);
  }

  private async checkHealth(): Promise<void> {
    const client = this.client;
    if (client !== undefined) {
      try {
        await client.healthCheck();
      } catch (error) {
        this.notifyWatchers(
          new RelayConnectionError(`The Agent Relay broker at ${this.resolved?.baseUrl ?? 'unknown'} stopped answering: ${describeError(error)}`, {
            baseUrl: this.resolved?.baseUrl,
            cause: error,
          }),
        );
      }
    }
    this.watchdog = undefined;
    this.armWatchdog();
  }

  private notifyWatchers(error: Error): void {
    for (const watcher of [...this.watchers]) {
      try {
        watcher(error);
      } catch {
        // A watcher's fault stays with it.
      }
    }
  }

  private onEvent(event: BrokerEventLike): void {
    if (event.kind !== 'relay_inbound') return;
    const parsed = relayInboundEventSchema.safeParse(event);
    if (!parsed.success) {
      this.counters.malformed += 1;
      return;
    }
    const { event_id: id, from, target, body, thread_id: threadId } = parsed.data;
    if (!this.recent.add(id)) {
      this.counters.duplicates += 1;
      return;
    }
    const listeners = this.listeners.get(target);
    if (listeners === undefined) return;
    this.counters.delivered += 1;
    const message: RelayInboundMessage = { id, from, target, text: body, ...(typeof threadId === 'string' ? { threadId } : {}) };
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch {
        // A subscriber's fault stays with it.
      }
    }
  }
}
