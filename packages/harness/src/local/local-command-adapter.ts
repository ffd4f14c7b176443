import { capTextDeltas } from '../execution/answer-cap.js';
import { checkExecutionRequest } from '../execution/execution-request-schema.js';
import { negotiateCapabilities } from '../execution/negotiate-capabilities.js';
import type {
  ExecutionAdapter,
  ExecutionCapabilities,
  ExecutionNegotiation,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
  ExecutionStreamEvent,
} from '../execution/types.js';
import { buildEnvironment } from '../process/build-environment.js';
import { incomingContinuationOf } from './incoming-continuation.js';
import { loadNodeModules } from '../process/load-node-modules.js';
import { runProcess } from '../process/run-process.js';
import { failedBeforeStart, localResult, toLocalResult, type LocalRun } from './to-local-result.js';
import { validateLocalCommandConfig, type ResolvedLocalCommandConfig } from './internal/validate-local-command-config.js';
import type { LocalCommandAdapterConfig, LocalCommandInvocationContext, LocalCommandPreparedRun } from './local-command-options.js';
import { describeError } from '../shared/describe-error.js';
import { defineExecutionAdapter } from '../core/define-execution-adapter.js';

const cloneCapabilities = (capabilities: ExecutionCapabilities): ExecutionCapabilities => ({
  ...capabilities,
  ...(capabilities.notes === undefined ? {} : { notes: [...capabilities.notes] }),
});


/**
 * Runs one turn as a local program: spawns `command` with `buildArgs(request)` (no shell, stdin
 * closed unless `stdin` is given, an allow-listed environment, its own process group), bounds it
 * by `timeoutMs`, the turn's `signal` and `maxOutputBytes`, and reads the answer with
 * `parseOutput(stdout)`. Every failure — a throwing `buildArgs`, a missing program, a crash, a
 * timeout, unreadable output — is returned as a `failed` result, never thrown. Node.js only:
 * `node:` modules load on the first `execute`.
 *
 * @example
 * const backend = new LocalCommandExecutionAdapter({
 *   backendId: 'echo-cli',
 *   command: 'node',
 *   capabilities: { toolUse: 'none', structuredToolCalls: false, continuationSupport: 'none',
 *     approvalInterrupts: 'none', traceDepth: 'minimal', attachments: false },
 *   buildArgs: () => ['-e', 'process.stdout.write(JSON.stringify({ answer: "hi" }))'],
 *   parseOutput: (stdout) => ({ text: JSON.parse(stdout).answer }),
 * });
 * const harness = createHarness({ backend });
 */
export class LocalCommandExecutionAdapter implements ExecutionAdapter {
  /** The backend id given in the config. */
  readonly backendId: string;
  private readonly config: ResolvedLocalCommandConfig;

  /** @throws HarnessConfigError when an option is invalid; `field` names it. */
  constructor(config: LocalCommandAdapterConfig) {
    this.config = validateLocalCommandConfig(config);
    this.backendId = this.config.backendId;
    defineExecutionAdapter(this);
  }

  /** A copy of the declared capabilities. */
  describeCapabilities(): ExecutionCapabilities {
    return cloneCapabilities(this.config.capabilities);
  }

  /** The standard negotiation plus the config's own reasons. */
  negotiate(request: ExecutionRequest): ExecutionNegotiation {
    const extra = this.config.negotiate?.(request) ?? [];
    return negotiateCapabilities(this.config.capabilities, request, extra);
  }

  /** Runs the command for one request. Resolves once the process group is gone; never rejects. */
  async execute(untrusted: ExecutionRequest, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const checked = checkExecutionRequest(untrusted, this.backendId);
    if (!checked.ok) return checked.result;
    const request = checked.request;
    const config = this.config;
    const incomingContinuation = incomingContinuationOf(request);
    const run: LocalRun = {
      config,
      context: { incomingContinuation, continuation: incomingContinuation },
      degradation: [],
      timeoutMs: effectiveTimeout(config.timeoutMs, request.timeoutMs),
    };
    let negotiation: ExecutionNegotiation;
    try {
      negotiation = this.negotiate(request);
    } catch (error) {
      return failedBeforeStart(run, `${config.commandLabel}: negotiate failed: ${describeError(error)}`, false);
    }
    if (!negotiation.supported) {
      const now = Date.now();
      return localResult(run, { startedAt: now, finishedAt: now }, {
        status: 'unsupported',
        error: {
          code: 'unsupported_capability',
          message: negotiation.reasons.filter((reason) => reason.severity === 'blocking').map((reason) => reason.message).join(' '),
          retryable: false,
        },
        metadata: { negotiation: negotiation.reasons },
      });
    }
    run.degradation = negotiation.reasons.filter((reason) => reason.severity !== 'blocking');

    const readLine = liveReader(config, options);
    let prepared: LocalCommandPreparedRun = {};
    let args: string[];
    let stdin: string | undefined;
    try {
      const continuation = config.continuationFor === undefined ? incomingContinuation : config.continuationFor(request, incomingContinuation);
      const context: LocalCommandInvocationContext = { incomingContinuation, continuation, ...(readLine === undefined ? {} : { streaming: true }) };
      run.context = context;
      if (continuation !== undefined) options.onContinuation?.(continuation);
      if (config.prepareRun !== undefined) {
        prepared = (await config.prepareRun(request, context)) ?? {};
        if (prepared.values !== undefined) context.prepared = prepared.values;
      }
      args = config.buildArgs(request, context);
      if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
        await finishPrepared(prepared);
        return failedBeforeStart(run, `${config.commandLabel}: buildArgs must return an array of strings.`, false);
      }
      stdin = config.stdin?.(request, context);
      if (stdin !== undefined && typeof stdin !== 'string') {
        await finishPrepared(prepared);
        return failedBeforeStart(run, `${config.commandLabel}: stdin must return a string.`, false);
      }
    } catch (error) {
      await finishPrepared(prepared);
      return failedBeforeStart(run, `${config.commandLabel}: could not prepare the command: ${describeError(error)}`, false);
    }

    let node;
    try {
      node = await loadNodeModules();
    } catch (error) {
      await finishPrepared(prepared);
      return failedBeforeStart(run, `${config.commandLabel} needs Node.js child processes: ${describeError(error)}.`, false);
    }
    const onStdoutLine = combineLineHandlers(config.onStdoutLine, readLine, request);
    const env = buildEnvironment(node.process.env, config.inheritEnv, config.env, node.process.platform);
    for (const [name, value] of Object.entries(prepared.env ?? {})) {
      // Set beside the configured values, not among them: these are the adapter's own paths and
      // switches, not secrets to blank out of stderr. The caller's `env` still wins.
      if (config.env === undefined || !Object.prototype.hasOwnProperty.call(config.env, name)) env[name] = value;
    }
    const spawnFn = config.spawnFn;
    const outcome = await runProcess(spawnFn === undefined ? node : { ...node, childProcess: { spawn: spawnFn } }, {
      command: prepared.command ?? config.command,
      args,
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      env,
      ...(stdin === undefined ? {} : { stdin }),
      timeoutMs: run.timeoutMs,
      killGraceMs: config.killGraceMs,
      maxOutputBytes: config.maxOutputBytes,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(onStdoutLine === undefined ? {} : { onStdoutLine }),
    });
    if (outcome.ending.kind === 'spawn_failed' && outcome.ending.error.code === 'ENOENT' && config.cwd !== undefined) {
      run.cwdMissing = await node.fs.stat(config.cwd).then(
        (stats) => !stats.isDirectory(),
        () => true,
      );
    }
    const context = run.context;
    const finished = await finishPrepared(prepared);
    return toLocalResult(run, outcome, () =>
      config.parseOutput(outcome.stdout, {
        ...context,
        ...(finished === undefined ? {} : { finished }),
        request,
        stderr: outcome.stderr,
        exitCode: outcome.ending.kind === 'exited' ? outcome.ending.exitCode : outcome.exitCode,
        exitSignal: outcome.ending.kind === 'exited' ? outcome.ending.exitSignal : outcome.exitSignal,
      }),
    );
  }
}

/**
 * Creates a {@link LocalCommandExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createLocalCommandAdapter(config: LocalCommandAdapterConfig): LocalCommandExecutionAdapter {
  return new LocalCommandExecutionAdapter(config);
}

/** Runs a prepared run's `finish`; what it throws is ignored, as documented. */
async function finishPrepared(prepared: LocalCommandPreparedRun): Promise<Readonly<Record<string, string>> | undefined> {
  try {
    return (await prepared.finish?.()) ?? undefined;
  } catch {
    return undefined;
  }
}

function effectiveTimeout(configured: number, requested: number | undefined): number {
  return requested !== undefined && Number.isFinite(requested) && requested > 0 ? Math.min(configured, requested) : configured;
}

/** The run's line reader when the caller listens and the config can stream; events go to `onEvent`. */
function liveReader(config: ResolvedLocalCommandConfig, options: ExecutionOptions): ((line: string) => void) | undefined {
  const onEvent = options.onEvent;
  if (onEvent === undefined || config.streamEvents === undefined) return undefined;
  let read: (line: string) => ExecutionStreamEvent[];
  try {
    read = config.streamEvents();
  } catch {
    return undefined;
  }
  const capDeltas = capTextDeltas();
  return (line) => {
    let events: ExecutionStreamEvent[];
    try {
      events = read(line);
    } catch {
      return;
    }
    if (!Array.isArray(events)) return;
    for (const event of events) {
      try {
        const kept = capDeltas(event);
        if (kept !== undefined) onEvent(kept);
      } catch {
        // A listener's fault never reaches the process.
      }
    }
  };
}

function combineLineHandlers(
  configured: ((line: string, request: ExecutionRequest) => void) | undefined,
  live: ((line: string) => void) | undefined,
  request: ExecutionRequest,
): ((line: string) => void) | undefined {
  if (configured === undefined) return live;
  return (line) => {
    try {
      configured(line, request);
    } catch {
      // Ignored, as documented.
    }
    live?.(line);
  };
}
