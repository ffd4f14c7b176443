import { SessionExecutionAdapter } from '../driver/session-execution-adapter.js';
import { resolveClaudeCodeSessionOptions, type ClaudeCodeSessionAdapterOptions } from './claude-code-session-options.js';
import { ClaudeCodeSessionProtocol } from './claude-code-session-protocol.js';
import type { ClaudeLiveSession, ClaudeTurn, ClaudeTurnEnd } from './claude-live-session.js';
import type { ClaudePermissionRequest } from './read-claude-line.js';

export { CLAUDE_CODE_SESSION_BACKEND_ID, CLAUDE_CODE_SESSION_KIND } from './claude-continuation.js';

/**
 * Claude Code as a long-lived session backend (`claude-code-session`): one
 * `claude -p --input-format stream-json --output-format stream-json --verbose
 * --permission-prompt-tool stdio --include-partial-messages` process per session, kept alive
 * across turns in a pool. Text deltas, tool activity and `TodoWrite` plans stream through
 * `ExecutionOptions.onEvent`. When Claude asks permission (`can_use_tool`), the turn ends
 * `awaiting_approval` with the tool, its input and Claude's options; `resumeTurn` with an approval
 * answers the request **in the same live process** and the turn runs on to its end. The turn's
 * signal interrupts Claude (`interrupt` control request). A follow-up turn with the continuation
 * reuses the live process; when it is gone (idle timeout, crash, another process), the session is
 * resumed from disk with `--resume`. An approval whose live process is gone cannot be answered:
 * the result says `continuation_invalid`. Node.js only; call `dispose()` to stop every process.
 *
 * @example
 * const backend = createClaudeCodeSessionAdapter({ cwd: '/work/repo', allowedTools: ['Read'] });
 * const harness = createHarness({ backend });
 * const paused = await harness.runTurn(input); // Claude wants to run a command
 * if (paused.outcome === 'awaiting_approval') {
 *   const [request] = paused.approvalRequests ?? [];
 *   await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { [request!.id]: 'approved' } });
 * }
 * await backend.dispose();
 */
export class ClaudeCodeSessionExecutionAdapter extends SessionExecutionAdapter<ClaudeLiveSession, ClaudePermissionRequest, ClaudeTurnEnd, ClaudeTurn> {
  /** @throws HarnessConfigError when an option is invalid; `field` names it. */
  constructor(options: ClaudeCodeSessionAdapterOptions = {}) {
    super(new ClaudeCodeSessionProtocol(resolveClaudeCodeSessionOptions(options)));
  }
}

/** @deprecated Renamed {@link ClaudeCodeSessionExecutionAdapter}; this alias goes in the next minor version. */
export const ClaudeCodeSessionAdapter = ClaudeCodeSessionExecutionAdapter;
/** @deprecated Renamed {@link ClaudeCodeSessionExecutionAdapter}; this alias goes in the next minor version. */
export type ClaudeCodeSessionAdapter = ClaudeCodeSessionExecutionAdapter;

/**
 * Creates a {@link ClaudeCodeSessionExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createClaudeCodeSessionAdapter(options: ClaudeCodeSessionAdapterOptions = {}): ClaudeCodeSessionExecutionAdapter {
  return new ClaudeCodeSessionExecutionAdapter(options);
}
