import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { buildLocalPrompt } from '../local/build-local-prompt.js';
import { LocalCommandExecutionAdapter } from '../local/local-command-adapter.js';
import type { LocalCommandAdapterConfig } from '../local/local-command-options.js';
import { createAdapterRunner } from './adapter-runner.js';
import type { CliRunner } from './cli-runner.js';
import { orphanGuardSpawn } from './internal/orphan-guard-spawn.js';

/** Options of {@link createBashCliRunner}. */
export interface BashCliRunnerOptions
  extends Partial<Pick<LocalCommandAdapterConfig, 'cwd' | 'env' | 'inheritEnv' | 'timeoutMs' | 'killGraceMs' | 'maxOutputBytes' | 'spawnFn'>> {
  /** The shell to run. @default 'bash' */
  command?: string;
  /**
   * The script, run as `bash --norc --noprofile -c -- <script>` with the prompt on stdin; what it prints on stdout
   * (trailing whitespace removed) is the answer, a non-zero exit a failure. The script comes from
   * the worker's operator, never from a request.
   * @default 'cat' (echoes the prompt back)
   */
  script?: string;
}

/**
 * Runs a shell script for each request: `bash --norc --noprofile -c -- <script>` with the prompt (built from the whole
 * request) on stdin, through the local process layer (no shell around bash itself, env
 * allow-list, output caps, process-group kill). Useful to wire any program into the bridge, and
 * for testing it. Backend id `bash`; no sessions.
 * @throws HarnessConfigError when an option is invalid.
 *
 * @example
 * const runner = createBashCliRunner({ script: 'tr a-z A-Z' });
 */
export function createBashCliRunner(options: BashCliRunnerOptions = {}): CliRunner {
  const { command = 'bash', script = 'cat', spawnFn = orphanGuardSpawn(), ...rest } = options;
  if (typeof script !== 'string' || script.trim() === '' || script.includes('\0')) {
    throw new HarnessConfigError('bash runner option script must be a non-empty string.', { field: 'script' });
  }
  const adapter = new LocalCommandExecutionAdapter({
    ...rest,
    ...(spawnFn === undefined ? {} : { spawnFn }),
    backendId: 'bash',
    command,
    commandLabel: 'bash runner',
    capabilities: {
      toolUse: 'none',
      structuredToolCalls: false,
      continuationSupport: 'none',
      approvalInterrupts: 'none',
      traceDepth: 'minimal',
      attachments: false,
      notes: ['Runs `bash --norc --noprofile -c -- <script>` with the prompt on stdin; stdout is the answer.'],
    },
    // --norc: bash reads ~/.bashrc even when non-interactive if stdin is a socket (as here).
    buildArgs: () => ['--norc', '--noprofile', '-c', '--', script],
    stdin: (request) => buildLocalPrompt(request),
    parseOutput: (stdout) => ({ text: stdout.trimEnd() }),
  });
  return createAdapterRunner(adapter, { id: 'bash' });
}
