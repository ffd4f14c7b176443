import type { NodeModules } from '../../process/node-types.js';
import { describeError } from '../../shared/describe-error.js';
import { JsonRpcPeer, type JsonRpcId, type JsonRpcIncomingRequest } from '../../process/json-rpc-peer.js';
import { spawnEngine, type EngineExit, type EngineProcess } from '../../process/spawn-engine.js';
import type { ProtocolSession } from '../driver/session-protocol.js';
import { SessionTurn } from '../driver/session-turn.js';
import { acpUpdateEvents, newTurnProgress, type AcpTurnProgress } from './acp-events.js';
import { ACP_PROTOCOL_VERSION, acpSchemas, type AcpPermissionParams, type AcpPromptResult } from './acp-wire.js';

/** How an ACP engine process is started. */
export interface AcpSpawnSpec {
  command: string;
  args: readonly string[];
  cwd?: string | undefined;
  env: Record<string, string>;
  maxLineBytes: number;
  maxStderrBytes: number;
  killGraceMs: number;
  clientName: string;
  clientVersion: string;
}

/** An open permission request of the running prompt. */
export interface AcpOpenPermission {
  id: JsonRpcId;
  params: AcpPermissionParams;
}

/** How a prompt ends: its result, or a failure (the engine may be gone). */
export type AcpPromptEnd = { kind: 'ended'; result: AcpPromptResult } | { kind: 'failed'; message: string; engineGone: boolean };

/** The prompt a session is running: a {@link SessionTurn} that also tracks the engine's tool calls. */
export class AcpPrompt extends SessionTurn<AcpOpenPermission, AcpPromptEnd> {
  readonly progress: AcpTurnProgress = newTurnProgress();

  /** True while the prompt runs and a permission request of it waits for an answer. */
  get awaitingPermission(): boolean {
    return this.awaitingApproval;
  }
}

/**
 * One live ACP engine process with one ACP session: the JSON-RPC peer over its stdio, the agent's
 * capabilities, and the prompt it is running. Requests the client does not serve (file system,
 * terminals) are answered with "method not found".
 */
export class AcpLiveSession implements ProtocolSession {
  /** Tells this process from a later one under the same key (a continuation names it). */
  readonly instanceId: string = globalThis.crypto.randomUUID();
  readonly engine: EngineProcess;
  readonly peer: JsonRpcPeer;
  /** The ACP session id, once `session/new` or `session/load` answered. */
  acpSessionId: string | undefined;
  /** Whether the agent can `session/load`. */
  canLoadSession = false;
  /** Agent name and version from `initialize`. */
  agentInfo: { name?: string | undefined; version?: string | undefined } = {};
  /** Prompts sent in this ACP session. */
  promptsSent = 0;
  /** The running (or paused) prompt. */
  prompt: AcpPrompt | undefined;
  /** Messages that were not valid JSON-RPC, for the trace. */
  protocolErrors = 0;
  private exit: EngineExit | undefined;

  constructor(node: NodeModules, spec: AcpSpawnSpec) {
    this.peer = new JsonRpcPeer({
      send: (line) => this.engine.write(line),
      onRequest: (request) => this.onRequest(request),
      onNotification: (method, params) => this.onNotification(method, params),
      onProtocolError: () => {
        this.protocolErrors += 1;
      },
    });
    this.engine = spawnEngine(node, {
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd,
      env: spec.env,
      maxLineBytes: spec.maxLineBytes,
      maxStderrBytes: spec.maxStderrBytes,
      killGraceMs: spec.killGraceMs,
      onLine: (line) => this.peer.receive(line),
    });
    void this.engine.exited.then((exit) => {
      this.exit = exit;
      const reason = describeExit(exit);
      this.peer.close(reason);
      this.prompt?.end({ kind: 'failed', message: reason, engineGone: true });
    });
  }

  /** False once the engine ended. */
  get alive(): boolean {
    return this.engine.alive && !this.peer.closed;
  }

  /** Settles when the engine process ended. */
  get exited(): Promise<EngineExit> {
    return this.engine.exited;
  }

  /** How the engine ended, once it did. */
  get exitDescription(): string | undefined {
    return this.exit === undefined ? undefined : describeExit(this.exit);
  }

  /** Stops the engine; resolves once no process of it is left. */
  dispose(): Promise<EngineExit> {
    this.peer.close('The engine session was closed.');
    return this.engine.dispose();
  }

  /** `initialize`; rejects when the engine does not answer in kind. */
  async initialize(clientName: string, clientVersion: string, signal?: AbortSignal): Promise<void> {
    const raw = await this.peer.request(
      'initialize',
      {
        protocolVersion: ACP_PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: clientName, version: clientVersion },
      },
      signal,
    );
    const parsed = acpSchemas().initializeResult.safeParse(raw);
    if (!parsed.success) throw new Error('The engine answered initialize with something that is not an ACP initialize result.');
    if (parsed.data.protocolVersion !== ACP_PROTOCOL_VERSION) {
      throw new Error(`The engine speaks ACP protocol version ${parsed.data.protocolVersion}; this client speaks ${ACP_PROTOCOL_VERSION}.`);
    }
    this.canLoadSession = parsed.data.agentCapabilities?.loadSession === true;
    this.agentInfo = { name: parsed.data.agentInfo?.name, version: parsed.data.agentInfo?.version };
  }

  /** `session/new` in `cwd`. */
  async newSession(cwd: string, signal?: AbortSignal): Promise<void> {
    const raw = await this.peer.request('session/new', { cwd, mcpServers: [] }, signal);
    const parsed = acpSchemas().newSessionResult.safeParse(raw);
    if (!parsed.success) throw new Error('The engine answered session/new without a session id.');
    this.acpSessionId = parsed.data.sessionId;
  }

  /** `session/load` of an earlier session (the engine replays it as updates, which are ignored). */
  async loadSession(sessionId: string, cwd: string, signal?: AbortSignal): Promise<void> {
    await this.peer.request('session/load', { sessionId, cwd, mcpServers: [] }, signal);
    this.acpSessionId = sessionId;
  }

  /** Sends `session/prompt` for `prompt`, which ends when its result (or a failure) arrives. */
  startPrompt(prompt: AcpPrompt, text: string): void {
    this.prompt = prompt;
    this.promptsSent += 1;
    const sessionId = this.acpSessionId;
    this.peer.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }).then(
      (raw) => {
        const parsed = acpSchemas().promptResult.safeParse(raw);
        prompt.end(
          parsed.success
            ? { kind: 'ended', result: parsed.data }
            : { kind: 'failed', message: 'The engine answered session/prompt without a stop reason.', engineGone: false },
        );
      },
      (error: unknown) => prompt.end({ kind: 'failed', message: describeError(error), engineGone: !this.alive }),
    );
  }

  /** Answers an open permission request with an option, or `cancelled` without one. */
  answerPermission(permission: AcpOpenPermission, optionId: string | undefined): boolean {
    const outcome = optionId === undefined ? { outcome: 'cancelled' } : { outcome: 'selected', optionId };
    return this.peer.respond(permission.id, { outcome });
  }

  /** `session/cancel` (the driver answers the open permission requests `cancelled` first, as ACP asks). */
  cancel(): void {
    if (this.acpSessionId !== undefined) this.peer.notify('session/cancel', { sessionId: this.acpSessionId });
  }

  private onNotification(method: string, params: unknown): void {
    const prompt = this.prompt;
    if (method !== 'session/update' || prompt === undefined || prompt.finished) return;
    if (!isForSession(params, this.acpSessionId)) return;
    for (const event of acpUpdateEvents(params, prompt.progress)) prompt.emit(event);
  }

  private onRequest(request: JsonRpcIncomingRequest): void {
    if (request.method !== 'session/request_permission') {
      this.peer.respondError(request.id, -32601, `This client does not serve ${request.method}.`);
      return;
    }
    const parsed = acpSchemas().requestPermission.safeParse(request.params);
    if (!parsed.success) {
      this.peer.respondError(request.id, -32602, 'Invalid session/request_permission parameters.');
      return;
    }
    const prompt = this.prompt;
    if (prompt === undefined || prompt.finished || parsed.data.sessionId !== this.acpSessionId) {
      // Nobody can decide: refuse it the way ACP allows (the agent treats it as cancelled).
      this.peer.respond(request.id, { outcome: { outcome: 'cancelled' } });
      return;
    }
    prompt.ask({ id: request.id, params: parsed.data });
  }
}

function isForSession(params: unknown, sessionId: string | undefined): boolean {
  if (typeof params !== 'object' || params === null) return false;
  try {
    return (params as { sessionId?: unknown }).sessionId === sessionId;
  } catch {
    return false;
  }
}

/** A sentence for an engine ending. */
export function describeExit(exit: EngineExit): string {
  switch (exit.kind) {
    case 'exited':
      return `The engine exited (${exit.exitSignal === null ? `code ${String(exit.exitCode)}` : `signal ${exit.exitSignal}`}).`;
    case 'spawn_failed':
      return `The engine could not be started${exit.code === undefined ? '' : ` (${exit.code})`}: ${exit.message}`;
    case 'line_too_long':
      return `The engine wrote a line longer than ${exit.maxLineBytes} bytes and was stopped.`;
    case 'disposed':
      return 'The engine session was closed.';
  }
}
