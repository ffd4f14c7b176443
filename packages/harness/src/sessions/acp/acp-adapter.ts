import { SessionExecutionAdapter } from '../driver/session-execution-adapter.js';
import { resolveAcpAdapterOptions, type AcpAdapterOptions } from './acp-adapter-options.js';
import { AcpProtocol } from './acp-protocol.js';
import type { AcpEngineSetup } from './acp-engine-setup.js';
import type { AcpLiveSession, AcpOpenPermission, AcpPrompt, AcpPromptEnd } from './acp-session.js';

export { ACP_CONTINUATION_KIND } from './acp-protocol.js';

/**
 * A coding engine that speaks the Agent Client Protocol over stdio (`gemini --acp`,
 * `opencode acp`, …) as a backend. One engine process per session (`request.sessionId`, else
 * `threadId`), kept alive across turns in a session pool: `initialize`, `session/new`
 * (or `session/load` of the session a continuation names, after a restart), then one
 * `session/prompt` per turn, streaming `session/update`s through `onEvent`.
 *
 * When the engine asks permission (`session/request_permission`) the turn ends
 * `awaiting_approval`, the request still open in the live engine; `resumeTurn` with an approval
 * decision answers it there and the same prompt runs on. If that engine is gone (restarted,
 * stopped idle, or the continuation is resumed in another process) the resumed turn fails with
 * `error.metadata.reason: 'continuation_invalid'`. The turn's signal sends `session/cancel`.
 * Node.js only: `node:` modules load when the first session starts. Call `dispose()` when done.
 *
 * @example
 * const backend = createAcpAdapter({ command: 'gemini', args: ['--acp'], env: { GEMINI_API_KEY: key } });
 * const harness = createHarness({ backend });
 * const paused = await harness.runTurn({ ...input, sessionId: 'chat-1' });
 * if (paused.outcome === 'awaiting_approval') {
 *   const id = paused.approvalRequests[0].id;
 *   await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [id]: 'approved' } });
 * }
 * await backend.dispose();
 */
export class AcpExecutionAdapter extends SessionExecutionAdapter<AcpLiveSession, AcpOpenPermission, AcpPromptEnd, AcpPrompt> {
  private readonly acp: AcpProtocol;

  /**
   * @param setup A preset's engine set-up (private home, native binary), run once before the first engine starts.
   * @throws HarnessConfigError when an option is invalid.
   */
  constructor(options: AcpAdapterOptions, setup?: AcpEngineSetup) {
    const protocol = new AcpProtocol(resolveAcpAdapterOptions(options), setup);
    super(protocol);
    this.acp = protocol;
  }

  /** Stops every engine process and undoes the preset's set-up (a private home is removed); resolves once none is left. */
  override async dispose(): Promise<void> {
    await super.dispose();
    await this.acp.release();
  }
}

/**
 * Creates an {@link AcpExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createAcpAdapter(options: AcpAdapterOptions): AcpExecutionAdapter {
  return new AcpExecutionAdapter(options);
}
