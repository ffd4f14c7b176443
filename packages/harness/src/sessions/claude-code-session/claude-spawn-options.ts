import { buildEnvironment } from '../../process/build-environment.js';
import { instructionsText } from '../../local/instructions-text.js';
import type { NodeModules } from '../../process/node-types.js';
import type { ResolvedClaudeCodeSessionOptions } from './claude-code-session-options.js';
import type { ExecutionRequest } from '../../execution/types.js';

/** How to start the session's `claude` process: stream-json both ways, a new session id or `--resume`. */
export function spawnOptions(options: ResolvedClaudeCodeSessionOptions, node: NodeModules, request: ExecutionRequest, sessionId: string, resuming: boolean) {
  const args = [
    '-p',
    '--input-format',
    'stream-json',
    '--output-format',
    'stream-json',
    '--verbose',
    '--permission-prompt-tool',
    'stdio',
    '--include-partial-messages',
    `--permission-mode=${options.permissionMode}`,
    resuming ? `--resume=${sessionId}` : `--session-id=${sessionId}`,
  ];
  if (options.model !== undefined) args.push(`--model=${options.model}`);
  const instructions = instructionsText(request);
  if (instructions !== '') args.push(`--${options.systemPromptMode === 'append' ? 'append-system-prompt' : 'system-prompt'}=${instructions}`);
  if (options.allowedTools.length > 0) args.push(`--allowedTools=${options.allowedTools.join(',')}`);
  if (options.disallowedTools.length > 0) args.push(`--disallowedTools=${options.disallowedTools.join(',')}`);
  args.push(...options.extraArgs);
  return {
    command: options.command,
    args,
    cwd: options.cwd,
    env: buildEnvironment(node.process.env, options.inheritEnv, options.env, node.process.platform),
    maxLineBytes: options.maxLineBytes,
    maxStderrBytes: options.maxStderrBytes,
    killGraceMs: options.killGraceMs,
  };
}
