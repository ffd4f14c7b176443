import type {
  ExecutionCapabilities,
  ExecutionContinuation,
  ExecutionError,
  ExecutionNegotiationReason,
  ExecutionRequest,
  ExecutionResult,
  ExecutionStreamEvent,
} from '../execution/types.js';
import type { HarnessUsage } from '../shared/types/usage.js';
import type { LocalSpawnFn } from './local-spawn.js';

/** What `buildArgs`, `stdin` and `continuationFor` get besides the request. */
export interface LocalCommandInvocationContext {
  /**
   * The backend continuation the request carries: `request.continuation` (set by `resumeTurn`),
   * else the one a product passed in `metadata.backendContinuation` to continue a CLI session in a
   * new turn. `undefined` for a fresh session.
   */
  incomingContinuation: ExecutionContinuation | undefined;
  /** The continuation this run extends or creates, as returned by `continuationFor` (else `incomingContinuation`). */
  continuation: ExecutionContinuation | undefined;
  /**
   * `true` when the caller listens for live events (`ExecutionOptions.onEvent`) and the config
   * has `streamEvents`: ask the CLI for its streaming output format.
   */
  streaming?: boolean | undefined;
  /** The variables `prepare` returned for this run (added to the process environment); absent without `prepare`. */
  preparedEnv?: Readonly<Record<string, string>> | undefined;
}

/** What `parseOutput` gets besides stdout. */
export interface LocalCommandOutputContext extends LocalCommandInvocationContext {
  /** The request this run answered. */
  request: ExecutionRequest;
  /** Captured stderr (capped like stdout). */
  stderr: string;
  /** The exit code; `null` when the process died of a signal. */
  exitCode: number | null;
  /** The signal that ended the process, if any (e.g. `SIGSEGV`). */
  exitSignal: string | null;
}

/**
 * What `parseOutput` returns. `{ text }` is enough for a completed answer. `status` defaults to
 * `completed` after exit code 0. After a non-zero exit the result counts only when it sets
 * `status` explicitly (for CLIs that print a structured error and exit 1); otherwise the exit is
 * reported as a `backend_execution_error`.
 */
export interface LocalCommandParsedOutput {
  /** The assistant's answer. */
  text?: string | undefined;
  /** Structured output, passed through as `output.structured`. */
  structured?: Record<string, unknown> | undefined;
  /** Tokens and cost of this run. */
  usage?: HarnessUsage | undefined;
  /** The backend's own resume payload (e.g. a CLI session id). */
  continuation?: ExecutionContinuation | undefined;
  /** @default 'completed' (after exit code 0) */
  status?: ExecutionResult['status'] | undefined;
  /** Required for useful `failed` results: what went wrong, with a truthful `retryable`. */
  error?: ExecutionError | undefined;
  /** Extra details, merged into `result.metadata`. */
  metadata?: Record<string, unknown> | undefined;
}

/** Exit details handed to `isRetryableExit`. */
export interface LocalCommandExit {
  /** The exit code; `null` when the process died of a signal. */
  exitCode: number | null;
  /** The signal that ended the process, if any. */
  exitSignal: string | null;
  /** Captured stderr (capped). */
  stderr: string;
}

/**
 * Configuration of a {@link LocalCommandExecutionAdapter}: which program to run for a turn, how
 * to build its arguments and input, and how to read its output.
 */
export interface LocalCommandAdapterConfig {
  /** Identifies the backend in results and continuations, e.g. `my-cli`. */
  backendId: string;
  /** The program: a name looked up on `PATH`, or a path. Run directly, never through a shell. */
  command: string;
  /** What the backend can do, declared honestly; `negotiate` compares requests against it. */
  capabilities: ExecutionCapabilities;
  /**
   * The argument list for a request. Prefer passing the prompt through `stdin`; if it must be an
   * argument, put it after `--` so a prompt starting with `-` is not read as a flag. Never put
   * secrets here: arguments are visible in the process list.
   */
  buildArgs(request: ExecutionRequest, context: LocalCommandInvocationContext): string[];
  /**
   * Reads the captured stdout. Return `null` (or throw) when it is unusable: the turn then fails
   * with `invalid_backend_output` and a bounded preview of stdout.
   */
  parseOutput(stdout: string, context: LocalCommandOutputContext): LocalCommandParsedOutput | null;
  /**
   * Text written to the process's stdin, which is then closed. When absent, stdin is closed from
   * the start (`/dev/null`), so a CLI that reads stdin never waits for input.
   * @default undefined (stdin ignored)
   */
  stdin?: ((request: ExecutionRequest, context: LocalCommandInvocationContext) => string) | undefined;
  /**
   * The continuation this run extends or creates, known before it starts (for example a session
   * id the adapter chooses and passes on the command line). Reported on timeouts and crashes too,
   * so a deferred turn can be resumed. `parseOutput` may still return a different one.
   * @default (request, incoming) => incoming
   */
  continuationFor?: ((
    request: ExecutionRequest,
    incomingContinuation: ExecutionContinuation | undefined,
  ) => ExecutionContinuation | undefined) | undefined;
  /**
   * Extra negotiation reasons on top of the standard ones (see `negotiateCapabilities`).
   * @default undefined (none)
   */
  negotiate?: ((request: ExecutionRequest) => ExecutionNegotiationReason[]) | undefined;
  /**
   * Runs before each spawn, before `buildArgs` (e.g. to make the engine's private home and write
   * its configuration there). The variables it returns are added to `env` (they win) and handed
   * to `buildArgs`/`stdin` as `context.preparedEnv`. When it throws or rejects, the run fails
   * before anything starts.
   * @default undefined
   */
  prepare?: ((request: ExecutionRequest, context: LocalCommandInvocationContext) => Promise<Readonly<Record<string, string>> | undefined>) | undefined;
  /** Working directory of the process. @default the current directory of this process */
  cwd?: string | undefined;
  /** Variables added to the inherited environment (they win over inherited ones). @default {} */
  env?: Readonly<Record<string, string>> | undefined;
  /**
   * Names of the parent's environment variables passed through; `FOO_*` matches a prefix.
   * Replaces the default list; spread `DEFAULT_INHERITED_ENV` to extend it.
   * @default DEFAULT_INHERITED_ENV (PATH, HOME, locale, temp dirs, proxies; no credentials)
   */
  inheritEnv?: readonly string[] | undefined;
  /**
   * Wall time of one run, in milliseconds. The request's own `timeoutMs` (the harness deadline)
   * lowers it. On expiry the process group gets SIGTERM, then SIGKILL after `killGraceMs`, and
   * the result is `failed` / `timeout` (retryable).
   * @default 300000 (5 minutes)
   */
  timeoutMs?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL when stopping the process group. @default 2000 */
  killGraceMs?: number | undefined;
  /**
   * Cap on captured stdout, and separately on stderr, in bytes. A process that writes more is
   * stopped and the run fails with `invalid_backend_output` (not retryable).
   * @default 8388608 (8 MiB)
   */
  maxOutputBytes?: number | undefined;
  /**
   * Called with each complete stdout line as it arrives (with the request it belongs to), for
   * progress or streaming. Errors it throws are ignored.
   * @default undefined
   */
  onStdoutLine?: ((line: string, request: ExecutionRequest) => void) | undefined;
  /**
   * Creates, for one run, a reader that turns each stdout line into live events (text deltas,
   * tool activity, plans). Used only when the caller listens (`ExecutionOptions.onEvent`);
   * `context.streaming` is then `true` so `buildArgs` can pick the CLI's streaming format.
   * Errors it throws are ignored. Declare `capabilities.streaming: true` with it.
   * @default undefined (no live events)
   */
  streamEvents?: (() => (line: string) => ExecutionStreamEvent[]) | undefined;
  /**
   * Whether a non-zero exit (that `parseOutput` did not explain) may succeed on retry.
   * @default exit by a signal not sent by the adapter (e.g. OOM kill) is retryable; a non-zero exit code is not
   */
  isRetryableExit?: ((exit: LocalCommandExit) => boolean) | undefined;
  /** A short name for messages, e.g. `Claude Code CLI`. @default `${backendId} command` */
  commandLabel?: string | undefined;
  /**
   * Starts the process instead of `child_process.spawn` (e.g. to run the command in a container,
   * or to observe spawns in tests). It receives the same command, arguments and options.
   * @default `spawn` from `node:child_process`
   */
  spawnFn?: LocalSpawnFn | undefined;
}
