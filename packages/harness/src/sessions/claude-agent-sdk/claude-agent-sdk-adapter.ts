import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { instructionsText } from '../../local/instructions-text.js';
import { buildEnvironment } from '../../process/build-environment.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import { isRecord } from '../../shared/is-record.js';
import { SessionExecutionAdapter } from '../driver/session-execution-adapter.js';
import type { SessionCallContext } from '../driver/session-protocol.js';
import { resolveClaudeCodeSessionOptions, type ClaudeCodeSessionAdapterOptions, type ResolvedClaudeCodeSessionOptions } from '../claude-code-session/claude-code-session-options.js';
import { ClaudeCodeSessionProtocol, type ClaudeEngine } from '../claude-code-session/claude-code-session-protocol.js';
import type { ClaudeLiveSession, ClaudeTurn, ClaudeTurnEnd } from '../claude-code-session/claude-live-session.js';
import type { ClaudePermissionRequest } from '../claude-code-session/read-claude-line.js';
import { startAgentSdkEngine } from './agent-sdk-engine.js';
import { loadClaudeAgentSdk, type AgentSdkModule } from './load-claude-agent-sdk.js';

/** The backend id of {@link ClaudeAgentSdkExecutionAdapter}. */
export const CLAUDE_AGENT_SDK_BACKEND_ID = 'claude-agent-sdk';

/** Options of {@link createClaudeAgentSdkAdapter}: those of the Claude Code session adapter, without the CLI's own. */
export interface ClaudeAgentSdkAdapterOptions extends Omit<ClaudeCodeSessionAdapterOptions, 'command' | 'extraArgs'> {
  /** The `claude` executable the SDK runs. @default the SDK's bundled one (its platform package) */
  pathToClaudeCodeExecutable?: string | undefined;
  /**
   * The SDK module itself (`await import('@anthropic-ai/claude-agent-sdk')`), for a bundle or a
   * module layout where this package cannot import it by name. @default imported by name on the first turn
   */
  sdk?: { query: (...args: never[]) => unknown } | undefined;
}

/**
 * Claude through the Agent SDK (`@anthropic-ai/claude-agent-sdk`, an optional peer loaded on
 * first use), backend id `claude-agent-sdk`: one long-lived `query()` per Claude session with
 * streaming input, kept across turns in the pool. Claude's permission requests reach the SDK's
 * `canUseTool` callback, which the adapter answers from the approval flow: a request the host's
 * rules leave open ends the turn `awaiting_approval`, and `resumeTurn` answers it in the same
 * live query. Text deltas, tool activity and plans stream; the turn's signal calls `interrupt()`.
 * Missing SDK: turns fail with a message naming the package. Node.js only; `dispose()` when done.
 *
 * @example
 * const backend = createClaudeAgentSdkAdapter({ cwd: '/work/repo', env: { ANTHROPIC_API_KEY: key } });
 * const harness = createHarness({ backend });
 * const result = await harness.runTurn(input); // awaiting_approval when Claude wants to run a command
 * await backend.dispose();
 */
export class ClaudeAgentSdkExecutionAdapter extends SessionExecutionAdapter<ClaudeLiveSession, ClaudePermissionRequest, ClaudeTurnEnd, ClaudeTurn> {
  /** @throws HarnessConfigError when an option is invalid; `field` names it. */
  constructor(options: ClaudeAgentSdkAdapterOptions = {}) {
    const { pathToClaudeCodeExecutable, sdk, ...rest } = isRecord(options as unknown) ? options : ({} as ClaudeAgentSdkAdapterOptions);
    if (sdk !== undefined && (!isRecord(sdk as unknown) || typeof sdk.query !== 'function')) {
      throw new HarnessConfigError('Claude Agent SDK adapter option sdk must be the SDK module (an object with query()).', { field: 'sdk' });
    }
    if (pathToClaudeCodeExecutable !== undefined && (typeof pathToClaudeCodeExecutable !== 'string' || pathToClaudeCodeExecutable === '' || pathToClaudeCodeExecutable.includes('\0'))) {
      throw new HarnessConfigError('Claude Agent SDK adapter option pathToClaudeCodeExecutable must be a non-empty path.', { field: 'pathToClaudeCodeExecutable' });
    }
    if ('command' in rest || 'extraArgs' in rest) {
      throw new HarnessConfigError('Claude Agent SDK adapter: command and extraArgs are options of the Claude Code session adapter; use pathToClaudeCodeExecutable.', { field: 'command' in rest ? 'command' : 'extraArgs' });
    }
    const resolved = resolveClaudeCodeSessionOptions(rest);
    super(new ClaudeCodeSessionProtocol(resolved, agentSdkEngine(resolved, pathToClaudeCodeExecutable, sdk as AgentSdkModule | undefined)));
  }
}

/**
 * Creates a {@link ClaudeAgentSdkExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createClaudeAgentSdkAdapter(options: ClaudeAgentSdkAdapterOptions = {}): ClaudeAgentSdkExecutionAdapter {
  return new ClaudeAgentSdkExecutionAdapter(options);
}

function agentSdkEngine(options: ResolvedClaudeCodeSessionOptions, pathToClaudeCodeExecutable: string | undefined, given: AgentSdkModule | undefined): ClaudeEngine {
  return {
    identity: { backendId: CLAUDE_AGENT_SDK_BACKEND_ID, kind: `${CLAUDE_AGENT_SDK_BACKEND_ID}.session`, label: 'Claude Agent SDK' },
    notes: [
      'In-process: one Agent SDK query() per Claude session (streaming input), reused across turns.',
      "Permission requests reach the SDK's canUseTool callback; they become awaiting_approval and are answered in the live query.",
      'Uses Claude Code built-in tools (allowedTools / permissionMode), not the request tools.',
      'Continuation: the Claude session id; resumed with options.resume when the live query is gone.',
    ],
    async starter(context: SessionCallContext, resuming: boolean) {
      const [sdk, node] = await Promise.all([given ?? loadClaudeAgentSdk(), loadNodeModules()]);
      const env = buildEnvironment(node.process.env, options.inheritEnv, options.env, node.process.platform);
      const instructions = instructionsText(context.request);
      const queryOptions: Record<string, unknown> = {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.model === undefined ? {} : { model: options.model }),
        permissionMode: options.permissionMode,
        settingSources: [],
        includePartialMessages: true,
        ...(options.allowedTools.length > 0 ? { allowedTools: [...options.allowedTools] } : {}),
        ...(options.disallowedTools.length > 0 ? { disallowedTools: [...options.disallowedTools] } : {}),
        ...(instructions === '' ? {} : { systemPrompt: options.systemPromptMode === 'append' ? { type: 'preset', preset: 'claude_code', append: instructions } : instructions }),
        ...(resuming ? { resume: context.key } : { sessionId: context.key }),
        ...(pathToClaudeCodeExecutable === undefined ? {} : { pathToClaudeCodeExecutable }),
      };
      const spec = { queryOptions, env, maxLineBytes: options.maxLineBytes, maxStderrBytes: options.maxStderrBytes, killGraceMs: options.killGraceMs };
      return (onLine: (line: string) => void) => startAgentSdkEngine(sdk, spec, onLine);
    },
  };
}
