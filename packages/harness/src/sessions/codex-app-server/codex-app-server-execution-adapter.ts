import { SessionExecutionAdapter } from '../driver/session-execution-adapter.js';
import { resolveOptions, type CodexAppServerAdapterOptions } from './codex-app-server-options.js';
import { CodexAppServerProtocol } from './codex-app-server-protocol.js';
import type { CodexSession } from './codex-session.js';
import type { CodexPendingApproval, CodexTurn, CodexTurnEnd } from './codex-turn.js';

export { CODEX_APP_SERVER_BACKEND_ID, CODEX_APP_SERVER_CONTINUATION_KIND } from './codex-execution-result.js';

/**
 * OpenAI Codex as a long-lived session backend: one `codex app-server` process per session
 * (JSON-RPC over stdio), kept in a session pool and reused across turns. Threads start with
 * `approvalPolicy: "untrusted"`, so codex asks before it runs commands or changes files: the turn
 * then ends `awaiting_approval`, and `resumeTurn` with an approval decision answers codex in the
 * same live process, after which the turn continues. Text deltas, tool activity and plan updates
 * stream through `onEvent`; `steer` input goes to `turn/steer`; a cancelled turn is stopped with
 * `turn/interrupt`. Node.js only (`node:` modules load on the first `execute`). Call `dispose()`
 * to stop every process.
 */
export class CodexAppServerExecutionAdapter extends SessionExecutionAdapter<CodexSession, CodexPendingApproval, CodexTurnEnd, CodexTurn> {
  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: CodexAppServerAdapterOptions = {}) {
    super(new CodexAppServerProtocol(resolveOptions(options)));
  }
}

/** @deprecated Renamed {@link CodexAppServerExecutionAdapter}; this alias goes in the next minor version. */
export const CodexAppServerAdapter = CodexAppServerExecutionAdapter;
/** @deprecated Renamed {@link CodexAppServerExecutionAdapter}; this alias goes in the next minor version. */
export type CodexAppServerAdapter = CodexAppServerExecutionAdapter;

/**
 * Creates a {@link CodexAppServerExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 *
 * @example
 * const backend = createCodexAppServerAdapter({ cwd: '/work/repo', sandbox: 'workspace-write' });
 * const harness = createHarness({ backend });
 * const first = await harness.runTurn(input);
 * if (first.outcome === 'awaiting_approval') {
 *   const [request] = first.metadata.approvalRequests;
 *   await harness.resumeTurn(first.continuation!, { type: 'approval', decisions: { [request.id]: 'approved' } });
 * }
 * await backend.dispose();
 */
export function createCodexAppServerAdapter(options: CodexAppServerAdapterOptions = {}): CodexAppServerExecutionAdapter {
  return new CodexAppServerExecutionAdapter(options);
}
