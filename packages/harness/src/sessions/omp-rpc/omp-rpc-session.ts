import type { ExecutionStreamEvent } from '../../execution/types.js';
import { toolActivityKind } from '../../local/tool-activity-kind.js';
import type { NodeModules } from '../../process/node-types.js';
import { spawnEngine, type EngineExit, type EngineProcess, type SpawnEngineOptions } from '../../process/spawn-engine.js';
import type { ProtocolSession } from '../driver/session-protocol.js';
import { SessionTurn } from '../driver/session-turn.js';
import { describeExit } from '../acp/acp-session.js';
import { commandLine, FIRE_AND_FORGET_UI, isApprovalRequest, readOmpLine, uiResponseLine, type OmpLine, type OmpUsage } from './omp-rpc-wire.js';

/** An `extension_ui_request` of the running turn that waits for the host. */
export interface OmpApproval {
  id: string;
  method: string;
  title: string;
}

/** How a turn ends: `agent_end` (with the last assistant message's stop reason), or a failure. */
export type OmpTurnEnd =
  | { kind: 'ended'; stopReason: string | undefined; errorMessage: string | undefined; aborted: boolean }
  | { kind: 'failed'; message: string; engineGone: boolean };

/** A turn of omp: a {@link SessionTurn} that also sums the usage of its assistant messages. */
export class OmpTurn extends SessionTurn<OmpApproval, OmpTurnEnd> {
  readonly usage: Required<OmpUsage> = { input: 0, output: 0, cacheRead: 0, cost: 0 };
  usageSeen = false;
  /** `agent_start` arrived: an `abort` now reaches the run (omp drops an earlier one). */
  started = false;
  /** The host asked to stop before the run started. */
  abortWanted = false;
  aborted = false;
  last: { stopReason: string | undefined; errorMessage: string | undefined } = { stopReason: undefined, errorMessage: undefined };
}

/** Keep at most this many tool names of a turn (an engine may report endless calls). */
const MAX_TRACKED_TOOLS = 1_000;

/**
 * One live `omp --mode rpc` process: waits for `ready`, sends commands and matches their
 * `response`s by id, feeds the running turn from pi's session events, and queues approval
 * requests (`extension_ui_request` select Approve/Deny) on it. UI requests nobody can answer
 * are cancelled at once.
 */
export class OmpLiveSession implements ProtocolSession {
  readonly instanceId: string = globalThis.crypto.randomUUID();
  readonly engine: EngineProcess;
  /** omp's session id (from `get_state`), the continuation id. */
  sessionId: string | undefined;
  turn: OmpTurn | undefined;
  turnsSent = 0;
  /** The engine was started with `--resume` (its session already has the instructions). */
  resumed = false;
  invalidLines = 0;
  private readonly waiting = new Map<string, (line: Extract<OmpLine, { kind: 'response' }>) => void>();
  private readonly tools = new Map<string, string>();
  private counter = 0;
  private onReady: (() => void) | undefined;
  readonly ready: Promise<void>;
  private exit: EngineExit | undefined;

  constructor(node: NodeModules, spec: Omit<SpawnEngineOptions, 'onLine'>) {
    this.ready = new Promise<void>((resolve) => {
      this.onReady = resolve;
    });
    this.engine = spawnEngine(node, { ...spec, onLine: (line) => this.onLine(line) });
    void this.engine.exited.then((exit) => {
      this.exit = exit;
      for (const settle of this.waiting.values()) settle({ kind: 'response', id: '', command: '', success: false, data: undefined, error: describeExit(exit) });
      this.waiting.clear();
      this.turn?.end({ kind: 'failed', message: describeExit(exit), engineGone: true });
    });
  }

  get alive(): boolean {
    return this.engine.alive;
  }

  get exited(): Promise<EngineExit> {
    return this.engine.exited;
  }

  /** How the engine ended, once it did. */
  get exitDescription(): string | undefined {
    return this.exit === undefined ? undefined : describeExit(this.exit);
  }

  /** Closes stdin first: omp then aborts its running tool and exits (SIGTERM would leave the tool alive). */
  dispose(): Promise<EngineExit> {
    return this.engine.dispose();
  }

  /** Sends a command and waits for its `response`; rejects with omp's error or when the engine ends. */
  async command(type: string, fields: Record<string, unknown> = {}, signal?: AbortSignal): Promise<unknown> {
    this.counter += 1;
    const requestId = `host-${this.counter}`;
    const answered = new Promise<Extract<OmpLine, { kind: 'response' }>>((resolve) => this.waiting.set(requestId, resolve));
    if (!this.engine.write(commandLine(requestId, type, fields))) {
      this.waiting.delete(requestId);
      throw new Error(this.exitDescription ?? 'The engine does not take input any more.');
    }
    const aborted = new Promise<never>((_, reject) => {
      if (signal === undefined) return;
      const fail = () => reject(new Error(`${type} was not answered in time.`));
      if (signal.aborted) fail();
      else signal.addEventListener('abort', fail, { once: true });
    });
    const response = await Promise.race([answered, aborted]).finally(() => this.waiting.delete(requestId));
    if (!response.success) throw new Error(`omp refused ${type}: ${(response.error ?? 'no reason given').slice(0, 500)}`);
    return response.data;
  }

  /** Starts `turn` with `prompt`; resolves once omp accepted it. */
  async prompt(turn: OmpTurn, message: string): Promise<void> {
    this.turn = turn;
    this.turnsSent += 1;
    await this.command('prompt', { message });
  }

  /** Stops the running turn; an `abort` before `agent_start` is held until it (omp would drop it). */
  abort(): void {
    const turn = this.turn;
    if (turn === undefined || turn.finished) return;
    if (!turn.started) {
      turn.abortWanted = true;
      return;
    }
    turn.aborted = true;
    this.engine.write(commandLine(`host-abort-${this.counter}`, 'abort'));
  }

  /** Answers an approval request: Approve / Deny (`confirm`: confirmed), or cancelled. */
  answer(approval: OmpApproval, decision: 'approved' | 'rejected' | 'cancelled'): boolean {
    if (decision === 'cancelled') return this.engine.write(uiResponseLine(approval.id, { cancelled: true }));
    const approved = decision === 'approved';
    return this.engine.write(uiResponseLine(approval.id, approval.method === 'confirm' ? { confirmed: approved } : { value: approved ? 'Approve' : 'Deny' }));
  }

  private onLine(raw: string): void {
    const line = readOmpLine(raw);
    const turn = this.turn !== undefined && !this.turn.finished ? this.turn : undefined;
    switch (line.kind) {
      case 'ready':
        this.onReady?.();
        return;
      case 'response':
        this.waiting.get(line.id)?.(line);
        return;
      case 'ui_request':
        return this.onUiRequest(line, turn);
      case 'invalid':
        this.invalidLines += 1;
        return;
      case 'ignored':
        return;
    }
    if (turn === undefined) return;
    switch (line.kind) {
      case 'agent_start':
        turn.started = true;
        if (turn.abortWanted) this.abort();
        return;
      case 'agent_end':
        turn.end({ kind: 'ended', ...turn.last, aborted: turn.aborted });
        return;
      case 'text_delta':
        turn.emit({ type: 'text_delta', text: line.text });
        return;
      case 'assistant_end':
        return this.onAssistantEnd(turn, line);
      case 'tool_start':
      case 'tool_end':
        turn.emit(this.toolEvent(line));
        return;
    }
  }

  private onAssistantEnd(turn: OmpTurn, line: Extract<OmpLine, { kind: 'assistant_end' }>): void {
    turn.last = { stopReason: line.stopReason, errorMessage: line.errorMessage };
    if (line.usage === undefined) return;
    turn.usageSeen = true;
    turn.usage.input += line.usage.input ?? 0;
    turn.usage.output += line.usage.output ?? 0;
    turn.usage.cacheRead += line.usage.cacheRead ?? 0;
    turn.usage.cost += line.usage.cost ?? 0;
  }

  private toolEvent(line: Extract<OmpLine, { kind: 'tool_start' | 'tool_end' }>): ExecutionStreamEvent {
    const name = line.toolName;
    const kind = toolActivityKind(name);
    if (line.kind === 'tool_start') {
      if (this.tools.size < MAX_TRACKED_TOOLS) this.tools.set(line.toolCallId, line.command ?? '');
      return { type: 'tool_activity', phase: 'started', toolCallId: line.toolCallId, name, kind, ...(line.command === undefined ? {} : { command: line.command }) };
    }
    const command = this.tools.get(line.toolCallId);
    this.tools.delete(line.toolCallId);
    const status = line.denied ? 'rejected' : line.isError ? 'failed' : 'succeeded';
    return { type: 'tool_activity', phase: 'finished', toolCallId: line.toolCallId, name, kind, status, ...(command ? { command } : {}) };
  }

  private onUiRequest(line: Extract<OmpLine, { kind: 'ui_request' }>, turn: OmpTurn | undefined): void {
    if (FIRE_AND_FORGET_UI.has(line.method)) return;
    const request: OmpApproval = { id: line.id, method: line.method, title: line.title };
    // Nobody can decide a request outside a turn, or one that is not an approval: cancel it.
    if (turn === undefined || !isApprovalRequest(line)) this.answer(request, 'cancelled');
    else turn.ask(request);
  }
}
