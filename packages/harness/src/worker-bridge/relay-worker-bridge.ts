import type { ExecutionResult } from '../execution/types.js';
import { buildLocalPrompt } from '../local/build-local-prompt.js';
import { describeError } from '../shared/describe-error.js';
import type { RelayInboundMessage } from '../agent-relay/protocol/relay-transport.js';
import type { ExecutionCancelMessage, ExecutionRequestMessage } from '../agent-relay/protocol/message-types.js';
import { hasNoControlCharacters } from '../agent-relay/protocol/control-characters.js';
import { decodeWorkerInboundMessage } from '../agent-relay/protocol/decode-worker-inbound.js';
import { RecentIds } from '../agent-relay/protocol/recent-ids.js';
import { encodeReply } from './internal/encode-reply.js';
import { createEventSender, type EventSender } from './internal/event-sender.js';
import { runWithBounds } from './internal/run-with-bounds.js';
import { validateBridgeConfig, type ResolvedBridgeConfig } from './internal/validate-bridge-config.js';
import { within } from './internal/within.js';
import { bridgeFailure, cancelReason } from './internal/worker-results.js';
import type {
  RelayWorkerBridge,
  RelayWorkerBridgeConfig,
  RelayWorkerBridgeEvent,
  RelayWorkerBridgeStats,
  RelayWorkerIgnoredReason,
} from './relay-worker-bridge-options.js';

/** Request ids remembered for deduplication, per bridge. */
const REMEMBERED_REQUESTS = 10_000;

/** One accepted request, from arrival to reply. */
interface Job {
  from: string;
  message: ExecutionRequestMessage;
  controller: AbortController;
  /** Set once the run started. */
  settled?: Promise<void>;
  /** Sends the run's live events, when the request asked for them (`stream: true`). */
  events?: EventSender;
}

/**
 * Connects a runner on this machine to a relay: runs each `agent-assistant.execution-request.v1`
 * addressed to `workerName` and replies to its sender, on the same thread, with an
 * `agent-assistant.execution-result.v1` carrying the run's `ExecutionResult` — including the CLI's
 * session as `continuation`, so the orchestrator's `resumeTurn` continues it. Each run is bounded
 * by `timeoutMs` (and the request's own timeout and deadline); at most `concurrency` run at once;
 * a repeated request id is ignored; a cancel message from the same sender stops the run and its
 * process. Messages that are not requests (malformed, foreign, from senders not allowed) are
 * ignored and counted, never thrown.
 *
 * @throws HarnessConfigError when the config is invalid (the promise rejects).
 *
 * @example
 * const bridge = await createRelayWorkerBridge({
 *   relay, channelId: 'specialists', workerName: 'specialist-worker',
 *   runner: createClaudeCliRunner(), timeoutMs: 120_000,
 * });
 * // … later
 * await bridge.dispose();
 */
export async function createRelayWorkerBridge(config: RelayWorkerBridgeConfig): Promise<RelayWorkerBridge> {
  const resolved = validateBridgeConfig(config);
  return Promise.resolve(new WorkerBridge(resolved));
}

const emptyIgnored = (): Record<RelayWorkerIgnoredReason, number> => ({
  not_json: 0,
  too_large: 0,
  foreign: 0,
  malformed: 0,
  sender: 0,
  duplicate: 0,
  expired: 0,
  unknown_cancel: 0,
});

class WorkerBridge implements RelayWorkerBridge {
  readonly workerName: string;
  private readonly config: ResolvedBridgeConfig;
  private readonly unsubscribe: () => void;
  private readonly seen = new RecentIds(REMEMBERED_REQUESTS);
  /** Queued and running jobs by sender, then request id: never a joined string of the two. */
  private readonly jobs = new Map<string, Map<string, Job>>();
  private readonly queue: Job[] = [];
  private readonly running = new Set<Job>();
  /** Replies being sent, so `dispose` can wait for them. */
  private readonly replies = new Set<Promise<void>>();
  private readonly counts = {
    received: 0,
    finished: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
    replyFailures: 0,
    ignored: emptyIgnored(),
  };
  private disposing: Promise<void> | undefined;
  /** When `dispose` stops the runs still in progress. */
  private stopAt = Number.POSITIVE_INFINITY;
  /** Re-arms the stop timer after `stopAt` moved. */
  private scheduleStop: (() => void) | undefined;

  constructor(config: ResolvedBridgeConfig) {
    this.config = config;
    this.workerName = config.workerName;
    this.unsubscribe = config.relay.subscribe(config.workerName, (message) => this.onMessage(message));
  }

  stats(): RelayWorkerBridgeStats {
    return { ...this.counts, ignored: { ...this.counts.ignored }, running: this.running.size, queued: this.queue.length };
  }

  dispose(options: { timeoutMs?: number } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs;
    if (timeoutMs !== undefined && Number.isFinite(timeoutMs)) {
      const stopAt = Date.now() + Math.max(0, timeoutMs);
      if (stopAt < this.stopAt) {
        this.stopAt = stopAt;
        this.scheduleStop?.();
      }
    }
    this.disposing ??= this.shutdown();
    return this.disposing;
  }

  private async shutdown(): Promise<void> {
    this.unsubscribe();
    for (const job of this.queue.splice(0)) {
      this.finish(job, bridgeFailure(this.backendId, 'backend_execution_error', `Worker ${this.workerName} is shutting down.`, true), 0);
    }
    this.stopAt = Math.min(this.stopAt, Date.now() + this.config.disposeTimeoutMs);
    const runsDone = () => Promise.all([...this.running].map((job) => job.settled));
    if (this.running.size > 0) {
      // Wait for the runs until `stopAt` (which a later dispose call may bring forward), then stop them.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<void>((resolve) => {
        this.scheduleStop = () => {
          clearTimeout(timer);
          timer = setTimeout(resolve, Math.max(0, this.stopAt - Date.now()));
        };
        this.scheduleStop();
      });
      await Promise.race([runsDone(), deadline]);
      clearTimeout(timer);
      this.scheduleStop = undefined;
      for (const job of this.running) job.controller.abort(cancelReason(`Worker ${this.workerName} is shutting down.`));
      await within(runsDone(), this.config.stopGraceMs);
    }
    await within(Promise.all([...this.replies]), this.config.stopGraceMs);
  }

  private get backendId(): string {
    return `worker:${this.config.runner.id}`;
  }

  private emit(event: RelayWorkerBridgeEvent): void {
    try {
      this.config.onEvent?.(event);
    } catch {
      // A logger's failure is not the bridge's.
    }
  }

  private ignore(reason: RelayWorkerIgnoredReason, from: string, detail: string): void {
    this.counts.ignored[reason] += 1;
    this.emit({ type: 'message_ignored', reason, from, detail });
  }

  private onMessage(inbound: RelayInboundMessage): void {
    if (this.disposing !== undefined) return;
    this.counts.received += 1;
    let from: string;
    let text: string;
    try {
      from = String(inbound.from);
      text = inbound.text;
    } catch (error) {
      this.ignore('malformed', '', `The message could not be read (${describeError(error)}).`);
      return;
    }
    if (!hasNoControlCharacters(from)) {
      this.ignore('malformed', from, 'The sender name holds control characters.');
      return;
    }
    if (this.config.allowedSenders !== undefined && !this.config.allowedSenders.has(from)) {
      this.ignore('sender', from, `${from} is not an allowed sender.`);
      return;
    }
    const decoded = decodeWorkerInboundMessage(text);
    if (!decoded.ok) {
      this.ignore(decoded.reason, from, decoded.detail);
      return;
    }
    if (decoded.message.type === 'agent-assistant.execution-cancel.v1') this.onCancel(from, decoded.message);
    else this.onRequest(from, decoded.message);
  }

  private onRequest(from: string, message: ExecutionRequestMessage): void {
    const expiresAt = message.deadline === undefined ? Date.parse(message.sentAt) + this.config.timeoutMs : Date.parse(message.deadline);
    if (expiresAt <= Date.now()) {
      this.ignore('expired', from, `Request ${message.requestId} expired at ${new Date(expiresAt).toISOString()}.`);
      return;
    }
    // As a JSON array, each sender and id pair has its own key, whatever characters they hold.
    if (!this.seen.add(JSON.stringify([from, message.requestId]))) {
      this.ignore('duplicate', from, `Request ${message.requestId} was already taken.`);
      return;
    }
    const job: Job = { from, message, controller: new AbortController() };
    const queued = this.running.size >= this.config.concurrency;
    this.emit({ type: 'request_received', requestId: message.requestId, turnId: message.turnId, from, queued });
    if (queued && this.queue.length >= this.config.maxQueue) {
      const refusal = `Worker ${this.workerName} is busy: ${this.running.size} running and ${this.queue.length} waiting.`;
      this.finish(job, bridgeFailure(this.backendId, 'backend_execution_error', refusal, true, { busy: true }), 0);
      return;
    }
    let fromSender = this.jobs.get(from);
    if (fromSender === undefined) this.jobs.set(from, (fromSender = new Map()));
    fromSender.set(message.requestId, job);
    this.queue.push(job);
    this.pump();
  }

  private onCancel(from: string, message: ExecutionCancelMessage): void {
    const job = this.jobs.get(from)?.get(message.requestId);
    if (job === undefined) {
      this.ignore('unknown_cancel', from, `No request ${message.requestId} from ${from} is in progress.`);
      return;
    }
    this.counts.cancelled += 1;
    this.emit({ type: 'request_cancelled', requestId: message.requestId, from, reason: message.reason });
    const why = `The orchestrator cancelled request ${message.requestId} (${message.reason}).`;
    const index = this.queue.indexOf(job);
    if (index === -1) {
      job.controller.abort(cancelReason(why));
      return;
    }
    this.queue.splice(index, 1);
    this.finish(job, bridgeFailure(this.backendId, 'backend_execution_error', why, true, { cancelled: true }), 0);
  }

  private pump(): void {
    while (this.running.size < this.config.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.start(job);
    }
  }

  private start(job: Job): void {
    const { message, from } = job;
    const timeoutMs = this.timeoutOf(message);
    if (timeoutMs <= 0) {
      this.finish(job, bridgeFailure(this.backendId, 'timeout', `Request ${message.requestId} reached its deadline before it could start.`, true), 0);
      return;
    }
    this.running.add(job);
    this.emit({ type: 'request_started', requestId: message.requestId, turnId: message.turnId, from, timeoutMs });
    const request = { ...message.request, timeoutMs };
    const startedAt = Date.now();
    if (message.stream === true) {
      const { requestId, turnId, threadId } = message;
      job.events = createEventSender(
        { requestId, turnId, threadId },
        (text) => this.config.relay.send({ from: this.workerName, to: from, text, threadId, channelId: this.config.channelId }),
        this.config.maxReplyChars,
      );
    }
    const events = job.events;
    let run;
    try {
      run = runWithBounds(
        this.config.runner,
        { request, prompt: buildLocalPrompt(request), timeoutMs, ...(events === undefined ? {} : { onEvent: (event) => events.push(event) }) },
        job.controller,
        this.config.stopGraceMs,
      );
    } catch (error) {
      this.running.delete(job);
      this.finish(job, bridgeFailure(this.backendId, 'backend_execution_error', `Could not start the run: ${describeError(error)}`, false), 0);
      this.pump();
      return;
    }
    job.settled = run.settled;
    void run.result.then((result) => {
      this.finish(job, result, Date.now() - startedAt);
      // The slot frees once the runner itself settled (its process is gone), not before.
      void run.settled.then(() => {
        this.running.delete(job);
        if (this.disposing === undefined) this.pump();
      });
    });
  }

  /** The run's time limit: `timeoutMs`, lowered by the request's own timeout and deadline. */
  private timeoutOf(message: ExecutionRequestMessage): number {
    let timeoutMs = this.config.timeoutMs;
    const requested = message.request.timeoutMs;
    if (requested !== undefined && Number.isFinite(requested)) timeoutMs = Math.min(timeoutMs, Math.floor(requested));
    if (message.deadline !== undefined) timeoutMs = Math.min(timeoutMs, Date.parse(message.deadline) - Date.now());
    return timeoutMs;
  }

  /** Replies to the job's sender and records the outcome. */
  private finish(job: Job, result: ExecutionResult, durationMs: number): void {
    const { message, from } = job;
    const fromSender = this.jobs.get(from);
    if (fromSender?.get(message.requestId) === job) {
      fromSender.delete(message.requestId);
      if (fromSender.size === 0) this.jobs.delete(from);
    }
    const executionResult = this.decorate(result);
    this.counts.finished += 1;
    if (executionResult.status === 'completed') this.counts.completed += 1;
    else this.counts.failed += 1;
    const text = encodeReply(message, executionResult, this.config.maxReplyChars, (result) => this.decorate(result));
    // Live events go first; a relay that is slow to take them delays the result by stopGraceMs at most.
    const eventsSent = job.events === undefined ? Promise.resolve() : within(job.events.close(), this.config.stopGraceMs);
    const sending = eventsSent
      .then(() => this.config.relay.send({ from: this.workerName, to: from, text, threadId: message.threadId, channelId: this.config.channelId }))
      .then(
        () => true,
        (error: unknown) => {
          this.counts.replyFailures += 1;
          this.emit({ type: 'reply_failed', requestId: message.requestId, to: from, detail: describeError(error) });
          return false;
        },
      )
      .then((replied) => {
        this.emit({
          type: 'request_finished',
          requestId: message.requestId,
          turnId: message.turnId,
          from,
          status: executionResult.status,
          ...(executionResult.error === undefined ? {} : { errorCode: executionResult.error.code }),
          durationMs,
          replied,
        });
      });
    this.replies.add(sending);
    void sending.finally(() => this.replies.delete(sending));
  }

  private decorate(result: ExecutionResult): ExecutionResult {
    return { ...result, metadata: { ...result.metadata, worker: { name: this.workerName, runner: this.config.runner.id } } };
  }

}
