import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { DEFAULT_INHERITED_ENV } from '../../local/local-command-defaults.js';
import { isRecord } from '../../shared/is-record.js';

/** How an approval is answered: for this call only, or for the rest of the engine session where the engine offers it. */
export type SessionApprovalScope = 'once' | 'session';

/** Options of {@link AcpExecutionAdapter} (`createAcpAdapter`). */
export interface AcpAdapterOptions {
  /** The backend id in results and traces. @default 'acp' */
  backendId?: string | undefined;
  /** The engine program: a name looked up on `PATH` or a path. No shell is involved. */
  command: string;
  /** Its arguments (e.g. `['--acp']`). Never put secrets here: arguments are visible in the process list. @default [] */
  args?: readonly string[] | undefined;
  /** Variables added to the inherited environment; secrets (API keys) go here. @default {} */
  env?: Readonly<Record<string, string>> | undefined;
  /** Names of parent variables passed through (`FOO_*` is a prefix). @default DEFAULT_INHERITED_ENV */
  inheritEnv?: readonly string[] | undefined;
  /** Working directory of the engine and of its ACP sessions. @default the current directory */
  cwd?: string | undefined;
  /** Wall time of one `execute` call, in milliseconds; lowered by `request.timeoutMs`. @default 300000 */
  timeoutMs?: number | undefined;
  /** Wall time to start the engine and open its session (`initialize` + `session/new`). @default 60000 */
  startupTimeoutMs?: number | undefined;
  /** Milliseconds between closing stdin, SIGTERM and SIGKILL when stopping an engine; also how long a cancelled prompt may take to end. @default 2000 */
  killGraceMs?: number | undefined;
  /** Longest line the engine may write, in bytes; a longer one stops it. @default 8388608 (8 MiB) */
  maxLineBytes?: number | undefined;
  /** Bytes of the engine's stderr kept for diagnostics. @default 65536 */
  maxStderrBytes?: number | undefined;
  /**
   * What an `approved` decision answers: the engine's allow-once option, or (`'session'`) its
   * allow-always option, so the engine stops asking for that kind of call in this session.
   * @default 'once'
   */
  approvalScope?: SessionApprovalScope | undefined;
  /** Most live engine processes (one per session). @default 4 */
  maxLiveSessions?: number | undefined;
  /** An idle engine (no turn running, no approval pending) is stopped after this many milliseconds. @default 600000 */
  idleTimeoutMs?: number | undefined;
  /** Name of the engine in messages. @default the backend id */
  label?: string | undefined;
  /** Extra notes for `describeCapabilities()`. */
  notes?: readonly string[] | undefined;
}

/** The options with every default applied. */
export interface ResolvedAcpAdapterOptions {
  backendId: string;
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  inheritEnv: readonly string[];
  cwd: string | undefined;
  timeoutMs: number;
  startupTimeoutMs: number;
  killGraceMs: number;
  maxLineBytes: number;
  maxStderrBytes: number;
  approvalScope: SessionApprovalScope;
  maxLiveSessions: number | undefined;
  idleTimeoutMs: number | undefined;
  label: string;
  notes: readonly string[];
}

/** Defaults of the ACP adapter, in one place; the docs quote these. */
export const DEFAULT_ACP_ADAPTER_OPTIONS = /* @__PURE__ */ Object.freeze({
  timeoutMs: 300_000,
  startupTimeoutMs: 60_000,
  killGraceMs: 2_000,
  maxLineBytes: 8_388_608 /* 8 MiB */,
  maxStderrBytes: 65_536 /* 64 KiB */,
});


/** Checks every option and applies defaults; throws `HarnessConfigError` naming the bad field. */
export function resolveAcpAdapterOptions(options: AcpAdapterOptions): ResolvedAcpAdapterOptions {
  const label = typeof options?.label === 'string' && options.label !== '' ? options.label : (options?.backendId ?? 'acp');
  const fail = (field: string, message: string): never => {
    throw new HarnessConfigError(`${label} option ${field} ${message}`, { field });
  };
  if (!isRecord(options)) fail('options', 'must be an object.');
  const text = (field: keyof AcpAdapterOptions): string | undefined => {
    const value = options[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '' || value.includes('\0')) fail(field, 'must be a non-empty string without NUL characters.');
    return value as string;
  };
  const integer = (field: keyof AcpAdapterOptions, allowZero = false): number | undefined => {
    const value = options[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1) || value > 2_147_483_647) {
      fail(field, `must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${String(value)}.`);
    }
    return value as number;
  };
  const strings = (field: 'args' | 'inheritEnv' | 'notes'): readonly string[] | undefined => {
    const value = options[field];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && !item.includes('\0'))) fail(field, 'must be an array of strings.');
    return [...(value as readonly string[])];
  };
  const command = text('command');
  if (command === undefined) return fail('command', 'is required.');
  const env: Record<string, string> = Object.create(null) as Record<string, string>;
  if (options.env !== undefined) {
    if (!isRecord(options.env)) fail('env', 'must be an object of strings.');
    for (const [name, value] of Object.entries(options.env)) {
      if (typeof value !== 'string') fail(`env.${name}`, `must be a string, got ${typeof value}.`);
      env[name] = value;
    }
  }
  const scope = options.approvalScope;
  if (scope !== undefined && scope !== 'once' && scope !== 'session') fail('approvalScope', "must be 'once' or 'session'.");
  return {
    backendId: text('backendId') ?? 'acp',
    command,
    args: strings('args') ?? [],
    env,
    inheritEnv: strings('inheritEnv') ?? DEFAULT_INHERITED_ENV,
    cwd: text('cwd'),
    timeoutMs: integer('timeoutMs') ?? DEFAULT_ACP_ADAPTER_OPTIONS.timeoutMs,
    startupTimeoutMs: integer('startupTimeoutMs') ?? DEFAULT_ACP_ADAPTER_OPTIONS.startupTimeoutMs,
    killGraceMs: integer('killGraceMs', true) ?? DEFAULT_ACP_ADAPTER_OPTIONS.killGraceMs,
    maxLineBytes: integer('maxLineBytes') ?? DEFAULT_ACP_ADAPTER_OPTIONS.maxLineBytes,
    maxStderrBytes: integer('maxStderrBytes', true) ?? DEFAULT_ACP_ADAPTER_OPTIONS.maxStderrBytes,
    approvalScope: scope ?? 'once',
    maxLiveSessions: integer('maxLiveSessions'),
    idleTimeoutMs: integer('idleTimeoutMs'),
    label,
    notes: strings('notes') ?? [],
  };
}
