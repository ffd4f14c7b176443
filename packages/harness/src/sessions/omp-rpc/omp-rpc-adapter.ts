import { SessionExecutionAdapter } from '../driver/session-execution-adapter.js';
import { resolveOmpRpcOptions, type OmpRpcAdapterOptions } from './omp-rpc-options.js';
import { OmpRpcProtocol } from './omp-rpc-protocol.js';
import type { OmpApproval, OmpLiveSession, OmpTurn, OmpTurnEnd } from './omp-rpc-session.js';

/**
 * oh-my-pi (`omp`, a Bun program) as a session backend over its own stdio RPC (`omp --mode rpc`),
 * backend id `omp-rpc`. One engine process per session (`request.sessionId`, else `threadId`),
 * kept alive across turns. Text, tool activity and usage stream through `onEvent`; `steer()`
 * reaches the running turn. omp starts with `--approval-mode always-ask` unless `approvalMode`
 * says otherwise, so a command or edit ends the turn `awaiting_approval` and `resumeTurn` answers
 * Approve or Deny in the live engine. Each adapter runs omp in a private `HOME` (`home` to share
 * one across processes, which `--resume` needs). Node.js only; call `dispose()` when done.
 *
 * @example
 * const backend = createOmpRpcAdapter({ provider: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3' } });
 * const harness = createHarness({ backend });
 * const result = await harness.runTurn({ ...input, sessionId: 'chat-1' });
 * await backend.dispose();
 */
export class OmpRpcExecutionAdapter extends SessionExecutionAdapter<OmpLiveSession, OmpApproval, OmpTurnEnd, OmpTurn> {
  private readonly omp: OmpRpcProtocol;

  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: OmpRpcAdapterOptions = {}) {
    const protocol = new OmpRpcProtocol(resolveOmpRpcOptions(options));
    super(protocol);
    this.omp = protocol;
  }

  /** Stops every engine, then removes the private home. */
  override async dispose(): Promise<void> {
    await super.dispose();
    await this.omp.release();
  }
}

/**
 * Creates an {@link OmpRpcExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createOmpRpcAdapter(options: OmpRpcAdapterOptions = {}): OmpRpcExecutionAdapter {
  return new OmpRpcExecutionAdapter(options);
}
