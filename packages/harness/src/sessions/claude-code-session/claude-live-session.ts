import type { EngineExit, EngineProcess } from '../../process/spawn-engine.js';
import type { ProtocolSession } from '../driver/session-protocol.js';
import { SessionTurn } from '../driver/session-turn.js';
import { createClaudeCodeStreamReader } from '../../local/read-claude-code-stream.js';
import { allowLine, controlErrorLine, denyLine, interruptLine, userLine } from './claude-wire-messages.js';
import { readClaudeLine, type ClaudeLine, type ClaudePermissionRequest } from './read-claude-line.js';

/** How a turn ends: Claude's `result`, or the end of the process. */
export type ClaudeTurnEnd = { kind: 'result'; result: Record<string, unknown> } | { kind: 'ended'; exit: EngineExit };

/** Starts the engine of a session: `onLine` hears each stdout line (a `claude` process, or the Agent SDK's messages). */
export type ClaudeEngineStarter = (onLine: (line: string) => void) => EngineProcess;

/** How a pending permission request is answered. */
export type ClaudePermissionAnswer =
  | { behavior: 'allow'; always: boolean }
  | { behavior: 'deny'; message: string };

/** One turn of a live Claude Code session, with what its result reports about the process and the approval. */
export class ClaudeTurn extends SessionTurn<ClaudePermissionRequest, ClaudeTurnEnd> {
  /** How the process serving this `execute` call came to be. */
  engine: { reused: boolean; restarted: boolean; resumedWithFlag: boolean } | undefined;
  /** The person's decision this `execute` call answered, if it resumed one. */
  decision: 'approved' | 'rejected' | undefined;
}

/**
 * One live `claude -p --input-format stream-json` process: writes turns and permission answers,
 * reads its stdout and feeds the running {@link ClaudeTurn}: progress events, `can_use_tool`
 * requests (one at a time), the `result` that ends it, or the end of the process.
 */
export class ClaudeLiveSession implements ProtocolSession {
  /** Claude's session id, as `system/init` reported it (or as chosen with `--session-id`). */
  sessionId: string | undefined;
  /** Lines that were not JSON or had the wrong shape, over the life of the process. */
  invalidLines = 0;
  /** The running (or paused) turn. */
  turn: ClaudeTurn | undefined;

  private readonly engine: EngineProcess;
  /** Turns the turn's text, tool and plan lines into events (the same reader as the one-shot preset). */
  private readStream = createClaudeCodeStreamReader();
  private readonly deniedTools = new Set<string>();
  private requestCounter = 0;

  constructor(start: ClaudeEngineStarter, sessionId: string | undefined) {
    this.sessionId = sessionId;
    this.engine = start((line) => this.onLine(line));
    void this.engine.exited.then((exit) => this.turn?.end({ kind: 'ended', exit }));
  }

  /** False once the process has ended. */
  get alive(): boolean {
    return this.engine.alive;
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

  /** Sends a user turn; `turn` hears what follows. */
  sendTurn(turn: ClaudeTurn, text: string): void {
    this.turn = turn;
    this.readStream = createClaudeCodeStreamReader();
    this.deniedTools.clear();
    this.write(turn, userLine(text));
  }

  /** Answers a permission request of the running turn; false when the process is gone. */
  answer(request: ClaudePermissionRequest, answer: ClaudePermissionAnswer): boolean {
    if (answer.behavior === 'deny' && request.toolUseId !== undefined) this.deniedTools.add(request.toolUseId);
    const line =
      answer.behavior === 'allow'
        ? allowLine(request.requestId, request.input, answer.always ? request.suggestions : undefined)
        : denyLine(request.requestId, answer.message);
    return this.turn === undefined ? false : this.write(this.turn, line);
  }

  /** Asks Claude to stop the running turn (its `result` then ends it). False when the engine is gone. */
  interrupt(): boolean {
    this.requestCounter += 1;
    return this.engine.write(interruptLine(`host_interrupt_${this.requestCounter}`));
  }

  /** Writes a line for `turn`; a process that is gone (a failed spawn ends this way too) ends it. */
  private write(turn: ClaudeTurn, line: string): boolean {
    if (this.engine.alive && this.engine.write(line)) return true;
    const exit = this.engine.alive ? this.engine.dispose() : this.engine.exited;
    void exit.then((ended) => turn.end({ kind: 'ended', exit: ended }));
    return false;
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
          this.turn?.emit(denied ? { ...event, status: 'rejected' } : event);
        }
        return;
      case 'permission':
        return this.onPermission(line.request);
      case 'control_request':
        this.engine.write(controlErrorLine(line.requestId, `The host does not serve ${line.subtype} requests.`));
        return;
      case 'result':
        this.turn?.end({ kind: 'result', result: line.result });
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
    const turn = this.turn;
    if (turn === undefined || turn.finished || turn.approvals.length > 0) {
      // Nobody can answer it (no turn is running, or one request is already pending): refuse it.
      this.engine.write(denyLine(request.requestId, 'The host cannot answer this permission request now.'));
      return;
    }
    turn.ask(request);
  }
}
