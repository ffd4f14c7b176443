import * as v from '../../shared/validation/index.js';
import { checkStore, MAX_OUTPUT_ARTIFACT_BYTES, type OutputArtifactStore } from '../../context/output/output-artifact.js';
import { MIN_REDUCED_OUTPUT_BUDGET, reduceOutput } from '../../context/output/reduce-output.js';
import { createTemporaryOutputStore } from '../../context/output/temporary-output-store.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { buildEnvironment, DEFAULT_INHERITED_ENV } from '../../process/build-environment.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import { runProcess, type ProcessOutcome } from '../../process/run-process.js';
import { createToolRegistry, type TypedToolRegistry } from '../create-tool-registry.js';
import { defineTool } from '../define-tool.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { checkedInput } from '../checked-input.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { toolOutput } from '../tool-output.js';
import type { BashToolOptions } from './bash-tool-options.js';
import { splitCommand } from './split-command.js';
import { describeError } from '../../shared/describe-error.js';

/** The names of the bash tools. */
export const BASH_TOOL_NAMES = ['bash'] as const;

const MAX_COMMAND_CHARS = 16_384;
const PROGRAM_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._+-]{0,63}$/;
const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Most characters of partial output quoted in a timeout error. */
const PARTIAL_OUTPUT_CHARS = 4000;

/** What one command runs: a program and its arguments, never through a shell unless it is bash itself. */
interface Invocation {
  program: string;
  args: string[];
}

/**
 * Creates a `bash` tool that runs commands in `cwd` through the local backends' process layer:
 * no shell unless asked for, a process group of its own (SIGTERM then SIGKILL to the whole group
 * on timeout, cancellation or too much output; leftovers of a command that exited are stopped
 * too), an allow-listed environment, capped output: output past `maxOutputBytes` reaches the
 * model reduced to its failure lines (`reduceOutput`), the raw output kept in `outputStore`.
 * Node.js only: `node:child_process` loads on the first call, so importing it is Worker-safe.
 *
 * Without `allow` the model's input is a bash script and can do anything the process can —
 * approval (on by default) is the safety. With `allow`, only the listed programs run, without a
 * shell; an allowed program can still do what its arguments tell it (`git -c …`, `find -exec`).
 * @throws HarnessConfigError for a missing `cwd` or invalid options.
 * @example
 * ```ts
 * const tools = createBashToolRegistry({ cwd: repoPath, allow: ['git', 'ls', 'rg'] });
 * ```
 */
export function createBashToolRegistry(options: BashToolOptions): TypedToolRegistry {
  const config = readOptions(options);
  const allowText = config.allow === undefined ? '' : [...config.allow].join(', ');
  const description =
    config.allow === undefined
      ? 'Run a bash script in the working folder and get its output and exit code. Each call starts a fresh, ' +
        'non-interactive shell (no state carries over between calls). ' +
        `${outputNote(config.maxOutputBytes)} The command is stopped after ${String(config.timeoutMs)} ms.`
      : `Run one program (${allowText}) with arguments in the working folder, without a shell: no pipes, ` +
        'redirections, variables, globbing or chained commands. Group an argument containing spaces in \'…\' or "…". ' +
        `${outputNote(config.maxOutputBytes)} The command is stopped after ${String(config.timeoutMs)} ms.`;
  const rule = config.requiresApproval;
  const bash = defineTool({
    name: 'bash',
    description,
    requiresApproval: typeof rule === 'function' ? (input: { command: string }) => rule(input.command) : rule,
    input: checkedInput(
      { properties: { command: { type: 'string', minLength: 1, maxLength: MAX_COMMAND_CHARS } }, required: ['command'] },
      () => v.object({ command: v.string().check(v.minLength(1), v.maxLength(MAX_COMMAND_CHARS)) }),
    ),
    execute: async ({ command }, { signal }) => {
      const invocation = toInvocation(command, config.allow);
      const node = await loadNodeModules();
      const outcome = await runProcess(node, {
        command: invocation.program,
        args: invocation.args,
        cwd: node.path.resolve(config.cwd),
        env: buildEnvironment(node.process.env, config.inheritEnv, config.env, node.process.platform),
        timeoutMs: config.timeoutMs,
        killGraceMs: config.killGraceMs,
        maxOutputBytes: MAX_OUTPUT_ARTIFACT_BYTES,
        maxTotalOutputBytes: MAX_OUTPUT_ARTIFACT_BYTES,
        signal,
      });
      return toResult(outcome, invocation, config);
    },
  });
  return createToolRegistry([bash]);
}

interface BashConfig {
  cwd: string;
  timeoutMs: number;
  allow: ReadonlySet<string> | undefined;
  requiresApproval: boolean | ((command: string) => boolean);
  maxOutputBytes: number;
  inheritEnv: readonly string[];
  env: Record<string, string>;
  killGraceMs: number;
  outputStore: OutputArtifactStore;
}

/** What the description says about output. */
function outputNote(maxOutputBytes: number): string {
  return (
    `Output up to ${String(maxOutputBytes)} bytes per stream is shown whole; longer output is shown reduced, as JSON: ` +
    'the error and failure lines, the summary and the line ranges left out.'
  );
}

function readOptions(options: BashToolOptions): BashConfig {
  const cwd: unknown = options?.cwd;
  if (typeof cwd !== 'string' || cwd.trim() === '' || cwd.includes('\u0000')) {
    throw new HarnessConfigError('createBashToolRegistry needs cwd, the folder commands run in.', { field: 'cwd' });
  }
  let allow: Set<string> | undefined;
  if (options.allow !== undefined) {
    if (!Array.isArray(options.allow) || options.allow.length === 0) {
      throw new HarnessConfigError('allow must be a non-empty array of program names.', { field: 'allow' });
    }
    allow = new Set();
    for (const name of options.allow as unknown[]) {
      if (typeof name !== 'string' || !PROGRAM_PATTERN.test(name)) {
        throw new HarnessConfigError(`allow: ${JSON.stringify(name)} is not a bare program name (no paths).`, { field: 'allow' });
      }
      allow.add(name);
    }
  }
  const requiresApproval = options.requiresApproval ?? allow === undefined;
  if (typeof requiresApproval !== 'boolean' && typeof requiresApproval !== 'function') {
    throw new HarnessConfigError('requiresApproval must be a boolean or a function of the command.', { field: 'requiresApproval' });
  }
  const inheritEnv = options.inheritEnv ?? DEFAULT_INHERITED_ENV;
  if (!Array.isArray(inheritEnv) || inheritEnv.some((name) => typeof name !== 'string' || name === '')) {
    throw new HarnessConfigError('inheritEnv must be an array of variable names.', { field: 'inheritEnv' });
  }
  // Null prototype: a variable named `__proto__` stays a variable.
  const env = Object.create(null) as Record<string, string>;
  if (options.env !== undefined) {
    if (typeof options.env !== 'object' || options.env === null) throw new HarnessConfigError('env must be an object of strings.', { field: 'env' });
    for (const [name, value] of Object.entries(options.env)) {
      if (!ENV_NAME_PATTERN.test(name) || typeof value !== 'string' || value.includes('\u0000')) {
        throw new HarnessConfigError(`env.${name} must be a string under a variable name.`, { field: 'env' });
      }
      env[name] = value;
    }
  }
  return {
    cwd,
    timeoutMs: boundedOption(options.timeoutMs, 120_000, 3_600_000, 'timeoutMs'),
    allow,
    requiresApproval,
    maxOutputBytes: boundedOption(options.maxOutputBytes, 65_536, 8 * 1024 * 1024, 'maxOutputBytes'),
    inheritEnv: [...inheritEnv],
    env,
    killGraceMs: boundedOption(options.killGraceMs, 2_000, 60_000, 'killGraceMs'),
    outputStore: options.outputStore === undefined ? createTemporaryOutputStore('agent-assistant-output-') : checkStore(options.outputStore, 'outputStore'),
  };
}

/** The program to start: bash with the script as one argument, or an allow-listed program's argv. */
function toInvocation(command: string, allow: ReadonlySet<string> | undefined): Invocation {
  if (allow === undefined) return { program: 'bash', args: ['--norc', '--noprofile', '-c', command] };
  const split = splitCommand(command);
  if (!split.ok) throw new ToolExecutionError(`Command refused: ${split.reason}.`, { reason: 'command_refused', retryable: true });
  const [program, ...args] = split.argv as [string, ...string[]];
  if (!allow.has(program)) {
    throw new ToolExecutionError(`"${program}" is not an allowed program. Allowed: ${[...allow].join(', ')}.`, { reason: 'command_not_allowed', retryable: true });
  }
  return { program, args };
}

async function toResult(outcome: ProcessOutcome, invocation: Invocation, config: BashConfig) {
  const { ending } = outcome;
  if (ending.kind === 'spawn_failed') {
    const missing = ending.error.code === 'ENOENT';
    throw new ToolExecutionError(
      missing ? `Could not start "${invocation.program}": not found on PATH, or the working folder is missing.` : `Could not start "${invocation.program}": ${ending.error.message}`,
      { reason: missing ? 'command_not_found' : 'spawn_failed', retryable: missing && config.allow !== undefined },
    );
  }
  if (ending.kind === 'timed_out' || (ending.kind === 'aborted' && ending.reason === 'timeout')) {
    const why = ending.kind === 'timed_out' ? `after ${String(config.timeoutMs)} ms` : 'when its time ran out';
    throw new ToolExecutionError(`The command was stopped ${why}. Output so far:\n${describeOutput(outcome).slice(-PARTIAL_OUTPUT_CHARS)}`, {
      reason: 'timeout',
      retryable: true,
    });
  }
  if (ending.kind === 'aborted') throw new ToolExecutionError('The command was cancelled.', { reason: 'cancelled', retryable: false });
  const exitCode = ending.kind === 'exited' ? ending.exitCode : null;
  const exitSignal = ending.kind === 'exited' ? ending.exitSignal : outcome.exitSignal;
  const counts = { stdoutBytes: outcome.stdoutBytes, stderrBytes: outcome.stderrBytes };
  const fits = ending.kind === 'exited' && outcome.stdoutBytes <= config.maxOutputBytes && outcome.stderrBytes <= config.maxOutputBytes;
  if (fits) {
    const status = exitCode === 0 ? '' : exitCode === null ? `[ended by signal ${String(exitSignal)}]` : `[exit code ${String(exitCode)}]`;
    return toolOutput({
      text: [describeOutput(outcome), status].filter(Boolean).join('\n') || '(no output)',
      data: { exitCode, signal: exitSignal, truncated: false, ...counts },
    });
  }
  let reduced;
  try {
    reduced = await reduceOutput(
      { argv: [invocation.program, ...invocation.args], exitCode, signal: exitSignal, stdout: outcome.stdoutData, stderr: outcome.stderr, captureComplete: ending.kind === 'exited' },
      { budget: Math.max(config.maxOutputBytes, MIN_REDUCED_OUTPUT_BUDGET), store: config.outputStore },
    );
  } catch (error) {
    const ended = exitCode === null ? `ended by signal ${String(exitSignal)}` : `exit code ${String(exitCode)}`;
    throw new ToolExecutionError(`The command ran (${ended}), but its output passed the cap and could not be kept: ${describeError(error)}`, {
      reason: 'output_store_failed',
      retryable: false,
    });
  }
  const location = storeLocation(config.outputStore);
  return toolOutput({
    text: JSON.stringify(reduced),
    data: { exitCode, signal: exitSignal, truncated: true, ...counts, artifact: { id: reduced.artifact.id, ...(location === undefined ? {} : { location }) } },
  });
}

/** The store's `location` when it is a string (a getter that throws gives none). */
function storeLocation(store: OutputArtifactStore): string | undefined {
  try {
    return typeof store.location === 'string' ? store.location : undefined;
  } catch {
    return undefined;
  }
}

/** stdout, then stderr under a marker. */
function describeOutput(outcome: ProcessOutcome): string {
  const parts: string[] = [];
  if (outcome.stdout !== '' || outcome.stdoutBytes > 0) parts.push(outcome.stdout.replace(/\n$/, ''));
  if (outcome.stderr !== '' || outcome.stderrBytes > 0) parts.push(`[stderr]\n${outcome.stderr.replace(/\n$/, '')}`);
  return parts.join('\n');
}
