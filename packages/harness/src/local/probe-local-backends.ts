import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { BackendUnavailableError } from './errors/backend-unavailable-error.js';
import { buildEnvironment } from '../process/build-environment.js';
import { findExecutable } from '../process/find-executable.js';
import { knownBackendId, LOCAL_BACKENDS } from './internal/local-backend-catalog.js';
import { inspectNpmShim, missingShimBinary } from './internal/npm-shim.js';
import { loadNodeModules } from '../process/load-node-modules.js';
import type { NodeModules } from '../process/node-types.js';
import { runProcess } from '../process/run-process.js';
import { DEFAULT_INHERITED_ENV } from './local-command-defaults.js';
import { LOCAL_BACKEND_IDS, type LocalBackendId } from './local-backend-ids.js';
import { probeAdvice } from './probe-advice.js';

/**
 * How an engine is probed: `command` — a program looked up and started (`command`,
 * `resolvedPath` are about it); `in-process` — a package loaded into this process (`command`
 * names the package, `resolvedPath` where it resolved, `version` its version).
 */
export type EngineProbeKind = 'command' | 'in-process';

/** What `probeLocalBackends` found out about one backend. */
export interface LocalBackendProbe {
  /** The backend probed. */
  id: LocalBackendId;
  /** How it was probed: always `command` for a local CLI. */
  probe: EngineProbeKind;
  /** True when the CLI was found and answered `--version`. */
  available: boolean;
  /** The command looked for (the default binary name or the override). */
  command: string;
  /**
   * Absolute path of the program that runs: where the command resolved, or, when that is an npm
   * launcher script (`launcher`), the native binary the launcher would start — the executable to
   * pass as `command`.
   */
  resolvedPath?: string | undefined;
  /** The npm launcher script the command resolved to, when the probe looked through it to the native binary. */
  launcher?: string | undefined;
  /** The version the CLI reported, e.g. `2.1.332`. */
  version?: string | undefined;
  /** Why it is not available, as a sentence a person can act on. */
  error?: string | undefined;
}

/** Options of {@link probeLocalBackends} and {@link requireLocalBackend}. */
export interface ProbeLocalBackendsOptions {
  /** Command overrides per backend, e.g. `{ 'claude-code': '/opt/claude/bin/claude' }`. @default each CLI's usual binary name */
  commands?: Partial<Record<LocalBackendId, string>> | undefined;
  /** Milliseconds `--version` may take per backend. @default 10000 */
  timeoutMs?: number | undefined;
  /** Environment whose `PATH` (and `PATHEXT`) is searched. @default process.env */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Directory relative command paths resolve against. @default process.cwd() */
  /**
   * Whose words the `error` sentences use for their fixes: `'api'` names this function's options
   * (`commands`, `timeoutMs`), `'cli'` the `agent-assistant probe` flags (`--command ID=PATH`, `--timeout-ms`).
   * @default 'api'
   */
  advice?: 'api' | 'cli' | undefined;
  cwd?: string | undefined;
}

/** Defaults of the probe options. */
export const DEFAULT_PROBE_OPTIONS = /* @__PURE__ */ Object.freeze({ timeoutMs: 10_000 });

/**
 * Checks which local CLI backends can run here: looks each command up on `PATH` (or at the
 * given path) and runs `--version` with a short timeout. Never throws for a missing CLI (that is
 * `available: false` with an `error`); throws `UnknownBackendError` for an unknown id.
 *
 * @example
 * const probes = await probeLocalBackends(['claude-code', 'codex']);
 * for (const probe of probes) console.log(probe.id, probe.available ? probe.version : probe.error);
 */
export async function probeLocalBackends(
  ids: readonly string[] = LOCAL_BACKEND_IDS,
  options: ProbeLocalBackendsOptions = {},
): Promise<LocalBackendProbe[]> {
  if (!Array.isArray(ids)) throw new HarnessConfigError('probeLocalBackends ids must be an array of backend ids.', { field: 'ids' });
  const known = ids.map((id) => knownBackendId(id));
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_OPTIONS.timeoutMs;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new HarnessConfigError('probeLocalBackends timeoutMs must be a positive integer.', { field: 'timeoutMs' });
  }
  const node = await loadNodeModules();
  return Promise.all(known.map((id) => probeOne(node, id, timeoutMs, options)));
}

/**
 * Probes one backend and returns its probe when available; otherwise throws
 * `BackendUnavailableError` whose message says how to install or point at the CLI.
 * @throws UnknownBackendError for an unknown id.
 */
export async function requireLocalBackend(id: string, options: ProbeLocalBackendsOptions = {}): Promise<LocalBackendProbe> {
  const [probe] = await probeLocalBackends([id], options);
  if (probe === undefined || !probe.available) {
    const backendId = knownBackendId(id);
    throw new BackendUnavailableError(backendId, probe?.command ?? LOCAL_BACKENDS[backendId].command, probe?.error ?? 'The CLI is not available.');
  }
  return probe;
}

async function probeOne(node: NodeModules, id: LocalBackendId, timeoutMs: number, options: ProbeLocalBackendsOptions): Promise<LocalBackendProbe> {
  const entry = LOCAL_BACKENDS[id];
  const command = options.commands?.[id] ?? entry.command;
  const env = options.env ?? node.process.env;
  const cwd = options.cwd ?? node.process.cwd();
  const { override } = probeAdvice(id, options.advice);
  const lookup = await findExecutable(node, command, env, cwd);
  if (!lookup.found) {
    const error =
      lookup.reason === 'not_executable'
        ? `${entry.label} is not available: ${lookup.path} is not executable. Fix its permissions (chmod +x) ${override}.`
        : `${entry.label} is not available: \`${command}\` was not found${command.includes('/') ? '' : ' on PATH'}. Install it with \`${entry.install}\`, ${override}.`;
    return { id, probe: 'command', available: false, command, error };
  }
  const shim = entry.npmShim === undefined ? undefined : await inspectNpmShim(lookup.path, entry.npmShim, node.process.platform);
  if (shim !== undefined && !shim.present) {
    return {
      id,
      probe: 'command',
      available: false,
      command,
      resolvedPath: lookup.path,
      launcher: shim.launcher,
      error: `${entry.label} is not available: ${missingShimBinary(command, shim)} ${override.replace(/^or pass its path /, 'Put the binary there, or anywhere and pass its path ')}.`,
    };
  }
  const program = shim?.binary ?? lookup.path;
  const found = { id, probe: 'command' as const, command, resolvedPath: program, ...(shim === undefined ? {} : { launcher: shim.launcher }) };
  const outcome = await runProcess(node, {
    command: program,
    args: ['--version'],
    cwd,
    env: buildEnvironment({ ...env }, DEFAULT_INHERITED_ENV, undefined, node.process.platform),
    timeoutMs,
    killGraceMs: 500,
    maxOutputBytes: 64 * 1024,
  });
  const ending = outcome.ending;
  if (ending.kind === 'exited' && ending.exitCode === 0) {
    const line = (outcome.stdout.trim() || outcome.stderr.trim()).split('\n')[0]?.trim() ?? '';
    // pi prints its version on stderr; Copilot ends its line with a period (`GitHub Copilot CLI 1.0.102.`).
    const version = /\d+\.\d+\.\d+[^\s)]*/.exec(line)?.[0]?.replace(/[.,;:]+$/, '') ?? (line === '' ? undefined : line);
    return { ...found, available: true, ...(version === undefined ? {} : { version }) };
  }
  const why =
    ending.kind === 'timed_out'
      ? `did not answer within ${timeoutMs} ms`
      : ending.kind === 'exited'
        ? `exited with ${ending.exitSignal ?? `code ${ending.exitCode}`}${outcome.stderr.trim() === '' ? '' : `: ${outcome.stderr.trim().split('\n').at(-1)}`}`
        : ending.kind === 'spawn_failed'
          ? `could not start (${ending.error.message})`
          : 'was stopped';
  return {
    ...found,
    available: false,
    error: `${entry.label} at ${program} failed \`--version\`: it ${why}. Reinstall it with \`${entry.install}\` ${override}.`,
  };
}
