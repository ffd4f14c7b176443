import type { RelayInboundMessage, RelaySendInput, RelayTransport } from '../agent-relay/protocol/relay-transport.js';

/** What `intercept` decides for one sent message. */
export type MemoryRelayDecision = 'deliver' | 'drop';

/** Options of `createMemoryRelay`. */
export interface MemoryRelayOptions {
  /**
   * Sees every sent message before delivery. Return `'drop'` to lose it (the send still resolves,
   * as a real relay does when nobody reads the target); throw or reject to make `send` reject.
   */
  intercept?: ((message: RelaySendInput) => MemoryRelayDecision | Promise<MemoryRelayDecision>) | undefined;
}

/** An in-memory `RelayTransport` with hooks for tests. */
export interface MemoryRelay extends RelayTransport {
  /** Every message `send` accepted, in order (dropped ones included). */
  readonly sent: readonly RelaySendInput[];
  /**
   * Delivers an inbound message to the subscribers of `message.target`, as if it came over the
   * relay — for foreign, malformed, duplicate or wrong-sender messages. Returns the id used.
   */
  deliver(message: Omit<RelayInboundMessage, 'id'> & { id?: string | undefined }): string;
  /** Resolves with the next message delivered to `name`. Subscribe before you trigger the send. */
  nextMessage(name: string, options?: { signal?: AbortSignal | undefined }): Promise<RelayInboundMessage>;
  /** How many subscriptions are live, for `name` or in all (leak checks). */
  subscriberCount(name?: string): number;
  /** Tells every `watchConnection` listener the connection was lost (delivery keeps working). */
  loseConnection(error?: Error): void;
  /** Calls `listener` when `loseConnection` is called, until the returned function is called. */
  watchConnection(listener: (error: Error) => void): () => void;
  /** How many connection watchers are live (leak checks). */
  watcherCount(): number;
}

/**
 * Creates an in-memory relay: `send` delivers to the subscribers of `to` on a later microtask,
 * with a fresh message id, the sender's name and thread. Nothing is queued for names nobody
 * subscribes to. Use it to test an `AgentRelayExecutionAdapter` against a worker bridge (or
 * your own responder) without a broker.
 *
 * @example
 * const relay = createMemoryRelay();
 * relay.subscribe('worker', (message) => { ... });
 * const adapter = createAgentRelayExecutionAdapter({ relay, workerName: 'worker', orchestratorName: 'chat' });
 */
export function createMemoryRelay(options: MemoryRelayOptions = {}): MemoryRelay {
  const listeners = new Map<string, Set<(message: RelayInboundMessage) => void>>();
  const sent: RelaySendInput[] = [];
  const watchers = new Set<(error: Error) => void>();
  let sequence = 0;

  const dispatch = (message: RelayInboundMessage) => {
    const targets = listeners.get(message.target);
    if (targets === undefined) return;
    for (const listener of [...targets]) {
      if (!targets.has(listener)) continue;
      try {
        listener(message);
      } catch {
        // A listener's fault is its own; the relay keeps delivering.
      }
    }
  };
  const deliver = (message: Omit<RelayInboundMessage, 'id'> & { id?: string | undefined }): string => {
    const id = message.id ?? `memory-${++sequence}`;
    const inbound: RelayInboundMessage = {
      id,
      from: message.from,
      target: message.target,
      text: message.text,
      ...(message.threadId === undefined ? {} : { threadId: message.threadId }),
    };
    queueMicrotask(() => dispatch(inbound));
    return id;
  };
  const subscribe = (name: string, listener: (message: RelayInboundMessage) => void) => {
    let set = listeners.get(name);
    if (set === undefined) listeners.set(name, (set = new Set()));
    const entry = (message: RelayInboundMessage) => listener(message);
    set.add(entry);
    return () => {
      const current = listeners.get(name);
      if (current === undefined) return;
      current.delete(entry);
      if (current.size === 0) listeners.delete(name);
    };
  };

  return {
    sent,
    async send(message) {
      const copy: RelaySendInput = { ...message };
      const decision = options.intercept === undefined ? 'deliver' : await options.intercept(copy);
      sent.push(copy);
      if (decision === 'drop') return;
      deliver({ from: copy.from, target: copy.to, text: copy.text, ...(copy.threadId === undefined ? {} : { threadId: copy.threadId }) });
    },
    subscribe,
    deliver,
    nextMessage(name, { signal } = {}) {
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          unsubscribe();
          reject(signal?.reason instanceof Error ? signal.reason : new Error('nextMessage was aborted.'));
        };
        const unsubscribe = subscribe(name, (message) => {
          unsubscribe();
          signal?.removeEventListener('abort', onAbort);
          resolve(message);
        });
        if (signal?.aborted === true) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    loseConnection(error = new Error('The in-memory relay lost its connection (test).')) {
      for (const watcher of [...watchers]) {
        try {
          watcher(error);
        } catch {
          // A watcher's fault is its own.
        }
      }
    },
    watchConnection(listener) {
      const entry = (error: Error) => listener(error);
      watchers.add(entry);
      return () => {
        watchers.delete(entry);
      };
    },
    watcherCount: () => watchers.size,
    subscriberCount(name) {
      if (name !== undefined) return listeners.get(name)?.size ?? 0;
      let count = 0;
      for (const set of listeners.values()) count += set.size;
      return count;
    },
  };
}
