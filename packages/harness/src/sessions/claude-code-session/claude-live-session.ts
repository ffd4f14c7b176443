import { capTextDeltas } from '../../execution/answer-cap.js';
import type { ExecutionStreamEvent } from '../../execution/types.js';
import type { NodeModules } from '../../process/node-types.js';
import { spawnEngine, type EngineExit, type EngineProcess, type SpawnEngineOptions } from '../../process/spawn-engine.js';
import type { PooledSession } from '../session-pool.js';
import { createClaudeCodeStreamReader } from '../../local/read-claude-code-stream.js';
import { allowLine, controlErrorLine, denyLine, interruptLine, userLine } from './claude-wire-messages.js';
import { readClaudeLine, type ClaudeLine, type ClaudePermissionRequest } from './read-claude-line.js';

/** Where a segment of a turn stopped. */
export type ClaudeTurnStop =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'permission'; request: ClaudePermissionRequest }
  | { kind: 'ended'; exit: EngineExit }
  | { kind: 'refused'; reason: string };

/** How a pending permission request is answered. */
export type ClaudePermissionAnswer =
  | { behavior: 'allow'; always: boolean }
  | { behavior: 'deny'; message: string };

/**
 * One live `claude -p --input-format stream-json` process: writes turns and permission answers,
 * reads its stdout, reports progress to the current listener, and says where each segment of a
 * turn stopped — a `result`, a `can_use_tool` request waiting for the host, or the end of the
 * process. One segment at a time.
 */
export class ClaudeLiveSession implements PooledSession {
  /** A random id of this process, so a continuation can tell it from a later process of the same Claude session. */
  readonly instanceId = crypto.randomUUID();
  /** Claude's session id, as `system/init` reported it (or as chosen with `--session-id`). */
  sessionId: string | undefined;
  /** The permission request the engine waits on, if any. */
  pending: ClaudePermissionRequest | undefined;
  /** Lines that were not JSON or had the wrong shape, over the life of the process. */
  invalidLines = 0;

  private readonly engine: EngineProcess;
  private waiter: ((stop: ClaudeTurnStop) => void) | undefined;
  private onEvent: ((event: ExecutionStreamEvent) => void) | undefined;
  /** Cuts the text deltas of the current segment at the answer cap. */
  private capDeltas = capTextDeltas();
  /** Turns the turn's text, tool and plan lines into events (the same reader as the one-shot preset). */
  private readStream = createClaudeCodeStreamReader();
  private readonly deniedTools = new Set<string>();
  private requestCounter = 0;

  constructor(node: NodeModules, options: Omit<SpawnEngineOptions, 'onLine'>, sessionId: string | undefined) {
    this.sessionId = sessionId;
    this.engine = spawnEngine(node, { ...options, onLine: (line) => this.onLine(line) });
    void this.engine.exited.then((exit) => this.stop({ kind: 'ended', exit }));
  }

  /** False once the process has ended. */
  get alive(): boolean {
    return this.engine.alive;
  }

  /** True while a permission request waits for an answer. */
  get awaitingApproval(): boolean {
    return this.pending !== undefined;
  }

  /** Settles when the process has ended. */
  get exited(): Promise<EngineExit> {
    return this.engine.exited;
  }

  /** The process id, for diagnostics. */
  get pid(): number | undefined {
    return this.engine.pid;
  }

  /** Recent stderr, for error messages. */
  stderrTail(): string {
    return this.engine.stderrTail();
  }

  /** Stops the process; resolves once it and its group are gone. */
  dispose(): Promise<EngineExit> {
    return this.engine.dispose();
  }

  /** Sends a user turn and waits for where it stops. */
  sendTurn(text: string, onEvent: ((event: ExecutionStreamEvent) => void) | undefined): Promise<ClaudeTurnStop> {
    this.readStream = createClaudeCodeStreamReader();
    this.deniedTools.clear();
    return this.segment(userLine(text), onEvent);
  }

  /** Answers the pending permission request and waits for where the turn stops next. */
  answer(answer: ClaudePermissionAnswer, onEvent: ((event: ExecutionStreamEvent) => void) | undefined): Promise<ClaudeTurnStop> {
    const request = this.pending;
    if (request === undefined) return Promise.resolve({ kind: 'refused', reason: 'no permission request is pending in this session' });
    this.pending = undefined;
    if (answer.behavior === 'deny' && request.toolUseId !== undefined) this.deniedTools.add(request.toolUseId);
    const line =
      answer.behavior === 'allow'
        ? allowLine(request.requestId, request.input, answer.always ? request.suggestions : undefined)
        : denyLine(request.requestId, answer.message);
    return this.segment(line, onEvent);
  }

  /** Asks Claude to stop the running turn (its `result` then ends the current segment). False when the engine is gone. */
  interrupt(): boolean {
    this.requestCounter += 1;
    return this.engine.write(interruptLine(`host_interrupt_${this.requestCounter}`));
  }

  /** Waits for the running segment to stop, without writing anything (after an interrupt). */
  waitForStop(onEvent: ((event: ExecutionStreamEvent) => void) | undefined): Promise<ClaudeTurnStop> {
    return this.segment(undefined, onEvent);
  }

  private segment(line: string | undefined, onEvent: ((event: ExecutionStreamEvent) => void) | undefined): Promise<ClaudeTurnStop> {
    if (this.waiter !== undefined) return Promise.resolve({ kind: 'refused', reason: 'the session is already running a turn' });
    return new Promise<ClaudeTurnStop>((resolve) => {
      this.waiter = resolve;
      this.onEvent = onEvent;
      this.capDeltas = capTextDeltas();
      if (!this.engine.alive) {
        void this.engine.exited.then((exit) => this.stop({ kind: 'ended', exit }));
        return;
      }
      if (line !== undefined && !this.engine.write(line)) {
        // The engine is gone or going (a failed spawn ends this way too): its exit ends the segment.
        void this.engine.dispose().then((exit) => this.stop({ kind: 'ended', exit }));
      }
    });
  }

  private stop(stop: ClaudeTurnStop): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    this.onEvent = undefined;
    waiter?.(stop);
  }

  private emit(event: ExecutionStreamEvent): void {
    const kept = this.capDeltas(event);
    if (kept === undefined) return;
    try {
      this.onEvent?.(kept);
    } catch {
      // A listener's failure never breaks the session.
    }
  }

  private onLine(raw: string): void {
    const line: ClaudeLine = readClaudeLine(raw);
    switch (line.kind) {
      case 'init':
        this.sessionId = line.sessionId;
        return;
      case 'text_delta':
      case 'assistant':
      case 'tool_results':
        for (const event of this.readStream(raw)) {
          const denied = event.type === 'tool_activity' && event.phase === 'finished' && this.deniedTools.has(event.toolCallId);
          this.emit(denied ? { ...event, status: 'rejected' } : event);
        }
        return;
      case 'permission':
        return this.onPermission(line.request);
      case 'control_request':
        this.engine.write(controlErrorLine(line.requestId, `The host does not serve ${line.subtype} requests.`));
        return;
      case 'result':
        this.stop({ kind: 'result', result: line.result });
        return;
      case 'invalid':
        this.invalidLines += 1;
        return;
      case 'control_response':
      case 'ignored':
        return;
    }
  }

  private onPermission(request: ClaudePermissionRequest): void {
    if (this.waiter === undefined || this.pending !== undefined) {
      // Nobody can answer it (no turn is waiting, or one request is already pending): refuse it.
      this.engine.write(denyLine(request.requestId, 'The host cannot answer this permission request now.'));
      return;
    }
    this.pending = request;
    this.stop({ kind: 'permission', request });
  }
}
