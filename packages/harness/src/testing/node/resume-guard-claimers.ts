import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { ResumeGuardClaimer, ResumeGuardClaimerResult, ResumeGuardClaimers } from '../resume-guard-conformance/conformance-types.js';
import type { ClaimerMessage, ClaimerSetup } from './resume-guard-claimer-protocol.js';

/** Options of {@link createNodeResumeGuardClaimers}. */
export interface NodeResumeGuardClaimersOptions {
  /**
   * The module each claimer process imports to build its guard: a file path or a `file:` URL
   * (a bare package name would resolve from this package, not yours). Plain JavaScript, unless
   * `execArgv` adds a loader.
   */
  module: string | URL;
  /** The export that builds the guard: `(args) => HarnessResumeGuard | Promise<HarnessResumeGuard>`. @default 'default' */
  exportName?: string | undefined;
  /** JSON data handed to that export (a store URL, say). Sent over the child's stdin, never in argv. */
  args?: unknown;
  /** Node.js flags for each claimer (`['--import', 'tsx']` for a TypeScript module). @default [] */
  execArgv?: readonly string[] | undefined;
  /** Environment of each claimer. @default process.env */
  env?: NodeJS.ProcessEnv | undefined;
}

/** Most stderr kept per claimer, for the reason when one dies. */
const MAX_STDERR_CHARS = 8_192;

/** The claimer script, built beside this module (`dist/resume-guard-claimer.js`, ESM in either build; tsup shims `import.meta.url` in CommonJS). */
function claimerScript(): string {
  return fileURLToPath(new URL('./resume-guard-claimer.js', import.meta.url));
}

/**
 * Claimers for `runResumeGuardConformance` as Node.js child processes: each imports
 * `options.module`, calls its `exportName` export with `args` to build a guard over your store,
 * and resumes the suite's continuation under it. Talks over stdin/stdout (JSON lines); the
 * continuation secret and `args` never appear in argv. Node.js only.
 *
 * @throws HarnessConfigError when `module` is missing or `args` is not JSON.
 * @example
 * ```ts
 * // make-guard.mjs: export async function makeGuard({ url }) { … return createRedisResumeGuard({ client }); }
 * const processes = createNodeResumeGuardClaimers({ module: new URL('./make-guard.mjs', import.meta.url), exportName: 'makeGuard', args: { url } });
 * const report = await runResumeGuardConformance(makeGuard, { processes, store });
 * ```
 */
export function createNodeResumeGuardClaimers(options: NodeResumeGuardClaimersOptions): ResumeGuardClaimers {
  const moduleUrl = readModule(options?.module);
  const exportName = options.exportName ?? 'default';
  if (typeof exportName !== 'string' || exportName === '') {
    throw new HarnessConfigError('exportName must be a non-empty string.', { field: 'exportName' });
  }
  let args: unknown;
  try {
    args = options.args === undefined ? null : (JSON.parse(JSON.stringify(options.args)) as unknown);
  } catch (error) {
    throw new HarnessConfigError('args must be JSON data.', { field: 'args', cause: error });
  }
  const script = claimerScript();
  const execArgv = [...(options.execArgv ?? [])];
  return {
    start: (job) => startClaimer(script, execArgv, options.env, { module: moduleUrl, exportName, args, job }),
  };
}

function readModule(module: unknown): string {
  if (module instanceof URL) return module.href;
  if (typeof module !== 'string' || module.trim() === '') {
    throw new HarnessConfigError('createNodeResumeGuardClaimers needs module, the path or file: URL of the module that builds the guard.', {
      field: 'module',
    });
  }
  return module.startsWith('file:') ? module : pathToFileURL(resolve(module)).href;
}

function startClaimer(script: string, execArgv: string[], env: NodeJS.ProcessEnv | undefined, setup: ClaimerSetup): ResumeGuardClaimer {
  const child = spawn(process.execPath, [...execArgv, script], { stdio: ['pipe', 'pipe', 'pipe'], env: env ?? process.env });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.slice(0, MAX_STDERR_CHARS - stderr.length);
  });
  child.stdin.on('error', () => undefined);
  const ready = deferred<void>();
  const toolStarted = deferred<void>();
  const result = deferred<ResumeGuardClaimerResult>();
  const closed = new Promise<void>((resolveClosed) => {
    child.once('close', (code, signal) => {
      const why = new Error(`the claimer process ended (${signal ?? `exit code ${String(code)}`}) before it reported${stderr === '' ? '' : `: ${stderr.trim()}`}`);
      ready.reject(why);
      result.reject(why);
      resolveClosed();
    });
    child.once('error', (error) => {
      ready.reject(error);
      result.reject(error);
      resolveClosed();
    });
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: ClaimerMessage;
    try {
      message = JSON.parse(line) as ClaimerMessage;
    } catch {
      return;
    }
    if (message.type === 'ready') ready.resolve();
    else if (message.type === 'tool-started') toolStarted.resolve();
    else if (message.type === 'result') result.resolve(message.result);
    else if (message.type === 'error') {
      const error = new Error(`the claimer failed: ${message.message}`);
      ready.reject(error);
      result.reject(error);
    }
  });
  child.stdin.write(`${JSON.stringify(setup)}\n`);
  return {
    ready: ready.promise,
    toolStarted: toolStarted.promise,
    result: result.promise,
    go: () => {
      child.stdin.write('go\n');
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await closed;
    },
  };
}

/** A promise with its settle functions (later calls do nothing, as with a plain promise). */
function deferred<T>() {
  let resolveIt!: (value: T) => void;
  let rejectIt!: (error: unknown) => void;
  const promise = new Promise<T>((resolvePromise, rejectPromise) => {
    resolveIt = resolvePromise;
    rejectIt = rejectPromise;
  });
  promise.catch(() => undefined);
  return { promise, resolve: resolveIt, reject: rejectIt };
}
