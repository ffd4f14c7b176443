import type { NodeModules } from '../../process/node-types.js';
import { JsonRpcPeer, type JsonRpcIncomingRequest } from '../../process/json-rpc-peer.js';
import { spawnEngine, type EngineExit, type EngineProcess } from '../../process/spawn-engine.js';
import type { ProtocolSession } from '../driver/session-protocol.js';
import { codexSchemas } from './codex-protocol.js';
import type { CodexTurn } from './codex-turn.js';

/** How to start one `codex app-server` process. */
export interface CodexSessionSpawn {
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
  env: Record<string, string>;
  maxLineBytes: number;
  maxStderrBytes: number;
  killGraceMs: number;
  clientVersion: string;
}

/** Thread settings sent with `thread/start` / `thread/resume`. */
export interface CodexThreadSettings {
  cwd?: string | undefined;
  model?: string | undefined;
  approvalPolicy: 'untrusted' | 'on-request' | 'never';
  sandbox?: 'read-only' | 'workspace-write' | 'danger-full-access' | undefined;
  developerInstructions?: string | undefined;
}

/** JSON-RPC "method not found": the answer to requests this client does not serve. */
const METHOD_NOT_FOUND = -32601;

/** Most messages kept while a `turn/start` answer is awaited. */
const MAX_EARLY_MESSAGES = 1_000;

/**
 * One live `codex app-server` process: the JSON-RPC connection, the thread it serves and the turn
 * running in it (which may be paused on an approval between two `execute` calls).
 */
export class CodexSession implements ProtocolSession {
  /** The thread this session serves, once started or resumed. */
  threadId: string | undefined;
  /** The running (or paused) turn. */
  turn: CodexTurn | undefined;
  private goneMessage: string | undefined;
  /**
   * Messages that arrived while `turn/start` was in flight: codex sends the turn's first
   * notifications (and possibly an approval request) right behind its answer, before the turn
   * object exists here. They are replayed into the new turn. Bounded.
   */
  private early: Array<{ method: string; params: unknown; request?: JsonRpcIncomingRequest }> | undefined;

  private constructor(
    private readonly engine: EngineProcess,
    private readonly peer: JsonRpcPeer,
  ) {}

  /** Starts the process and runs the `initialize` handshake. Rejects (after stopping the process) when that fails. */
  static async start(node: NodeModules, spawn: CodexSessionSpawn, signal?: AbortSignal): Promise<CodexSession> {
    const ref: { session?: CodexSession } = {};
    const peer = new JsonRpcPeer({
      jsonrpcField: false,
      send: (line) => engine.write(line),
      onNotification: (method, params) => ref.session?.onNotification(method, params),
      onRequest: (request) => {
        if (ref.session === undefined) peer.respondError(request.id, METHOD_NOT_FOUND, 'Not ready.');
        else ref.session.onRequest(request);
      },
    });
    const engine = spawnEngine(node, {
      command: spawn.command,
      args: spawn.args,
      cwd: spawn.cwd,
      env: spawn.env,
      maxLineBytes: spawn.maxLineBytes,
      maxStderrBytes: spawn.maxStderrBytes,
      killGraceMs: spawn.killGraceMs,
      onLine: (line) => peer.receive(line),
    });
    const session = new CodexSession(engine, peer);
    ref.session = session;
    void engine.exited.then((exit) => session.onExit(exit));
    try {
      await raceExit(engine, peer.request('initialize', { clientInfo: { name: 'agent-assistant-harness', title: null, version: spawn.clientVersion }, capabilities: null }, signal));
      peer.notify('initialized');
    } catch (error) {
      await engine.dispose();
      throw error;
    }
    return session;
  }

  /** False once the process ended. */
  get alive(): boolean {
    return this.engine.alive && this.goneMessage === undefined;
  }

  /** Settles when the process has ended. */
  get exited(): Promise<EngineExit> {
    return this.engine.exited;
  }

  /** Why the engine is gone, once it is. */
  get gone(): string | undefined {
    return this.goneMessage;
  }

  /** The latest stderr output, for diagnostics. */
  stderrTail(): string {
    return this.engine.stderrTail();
  }

  /** Stops the process (closing stdin first) and resolves once it is gone. */
  dispose(): Promise<EngineExit> {
    return this.engine.dispose();
  }

  /** Makes `threadId` (or a new thread when undefined) this session's thread. Returns the thread id. */
  async openThread(threadId: string | undefined, settings: CodexThreadSettings, signal?: AbortSignal): Promise<{ threadId: string; resumed: boolean }> {
    if (this.threadId !== undefined && (threadId === undefined || threadId === this.threadId)) return { threadId: this.threadId, resumed: false };
    const common = {
      ...(settings.cwd === undefined ? {} : { cwd: settings.cwd }),
      ...(settings.model === undefined ? {} : { model: settings.model }),
      approvalPolicy: settings.approvalPolicy,
      ...(settings.sandbox === undefined ? {} : { sandbox: settings.sandbox }),
      ...(settings.developerInstructions === undefined ? {} : { developerInstructions: settings.developerInstructions }),
    };
    const method = threadId === undefined ? 'thread/start' : 'thread/resume';
    const result = await raceExit(this.engine, this.peer.request(method, threadId === undefined ? common : { ...common, threadId }, signal));
    const parsed = codexSchemas().threadResult.safeParse(result);
    if (!parsed.success) throw new Error(`codex answered ${method} without a thread id.`);
    this.threadId = parsed.data.thread.id;
    return { threadId: parsed.data.thread.id, resumed: threadId !== undefined };
  }

  /**
   * Starts `turn` on the session's thread with `text` as the user's input; the turn hears its
   * progress from the first message on (messages that came with the answer are replayed into it).
   */
  async startTurn(turn: CodexTurn, text: string, signal?: AbortSignal): Promise<void> {
    const threadId = this.threadId;
    if (threadId === undefined) throw new Error('No thread is open.');
    this.early = [];
    let result: unknown;
    try {
      result = await raceExit(this.engine, this.peer.request('turn/start', { threadId, input: [textInput(text)] }, signal));
    } catch (error) {
      this.replayEarly();
      throw error;
    }
    const parsed = codexSchemas().turnResult.safeParse(result);
    if (!parsed.success) {
      this.replayEarly();
      throw new Error('codex answered turn/start without a turn id.');
    }
    turn.begin(threadId, parsed.data.turn.id);
    this.turn = turn;
    this.replayEarly();
    if (this.goneMessage !== undefined) turn.engineGone(this.goneMessage);
  }

  /** Adds user input to the running turn (`turn/steer`). Rejects when codex refuses it. */
  async steer(turn: CodexTurn, text: string): Promise<void> {
    await this.peer.request('turn/steer', { threadId: turn.threadId, expectedTurnId: turn.turnId, input: [textInput(text)] });
  }

  /** Asks codex to stop the running turn (`turn/interrupt`); codex then ends it `interrupted`. */
  async interrupt(turn: CodexTurn): Promise<void> {
    await this.peer.request('turn/interrupt', { threadId: turn.threadId, turnId: turn.turnId });
  }

  private onNotification(method: string, params: unknown): void {
    if (this.early !== undefined) {
      if (this.early.length < MAX_EARLY_MESSAGES) this.early.push({ method, params });
      return;
    }
    this.turn?.notify(method, params);
  }

  private replayEarly(): void {
    const early = this.early ?? [];
    this.early = undefined;
    for (const message of early) {
      if (message.request === undefined) this.onNotification(message.method, message.params);
      else this.onRequest(message.request);
    }
  }

  private onRequest(request: JsonRpcIncomingRequest): void {
    if (this.early !== undefined && this.early.length < MAX_EARLY_MESSAGES) {
      this.early.push({ method: request.method, params: request.params, request });
      return;
    }
    const turn = this.turn;
    const accepted = turn?.request(request.method, request.params, (decision) => {
      this.peer.respond(request.id, { decision });
    });
    if (accepted === true) return;
    if (request.method.endsWith('/requestApproval')) {
      // An approval this client cannot show (another turn's, unreadable, or of a kind not
      // handled): refusing is the safe answer.
      this.peer.respond(request.id, { decision: 'decline' });
      return;
    }
    this.peer.respondError(request.id, METHOD_NOT_FOUND, `${request.method} is not supported by this client.`);
  }

  private onExit(exit: EngineExit): void {
    const message = describeExit(exit, this.engine.stderrTail());
    this.goneMessage = message;
    this.peer.close(message);
    this.turn?.engineGone(message);
  }
}

function textInput(text: string) {
  return { type: 'text', text, text_elements: [] as unknown[] };
}

/** `promise`, or a rejection once the engine has exited first. */
function raceExit<T>(engine: EngineProcess, promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    engine.exited.then((exit) => {
      throw new Error(describeExit(exit, engine.stderrTail()));
    }),
  ]);
}

function describeExit(exit: EngineExit, stderr: string): string {
  const lastLine = stderr.trim().split('\n').at(-1)?.trim().slice(0, 300);
  const detail = lastLine ? `: ${lastLine}` : '';
  switch (exit.kind) {
    case 'spawn_failed':
      return `codex app-server could not start (${exit.code ?? 'error'}): ${exit.message}`;
    case 'line_too_long':
      return `codex app-server wrote a line longer than ${exit.maxLineBytes} bytes and was stopped`;
    case 'disposed':
      return 'codex app-server was stopped';
    case 'exited':
      return `codex app-server exited (${exit.exitSignal === null ? `code ${exit.exitCode}` : exit.exitSignal})${detail}`;
  }
}
