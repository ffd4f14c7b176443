import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { UnknownBackendError } from '../local/errors/unknown-backend-error.js';
import { buildEnvironment } from '../process/build-environment.js';
import { processOutputRedactor } from '../process/environment-secrets.js';
import { findExecutable } from '../process/find-executable.js';
import { loadNodeModules } from '../process/load-node-modules.js';
import type { NodeModules } from '../process/node-types.js';
import { engineHandshake } from './internal/engine-handshake.js';
import { ENGINE_SESSION_IDS, ENGINE_SESSIONS, type EngineSessionId, type EngineSessionProtocol } from './internal/engine-session-catalog.js';
import { probeAdvice } from '../local/probe-advice.js';
import type { EngineProbeKind } from '../local/probe-local-backends.js';
import { loadClaudeAgentSdk } from './claude-agent-sdk/load-claude-agent-sdk.js';
import { describeError } from '../shared/describe-error.js';

export { ENGINE_SESSION_IDS, type EngineSessionId, type EngineSessionProtocol } from './internal/engine-session-catalog.js';

/** What `probeEngineSessions` found out about one session backend. */
export interface EngineSessionProbe {
  /** The session backend probed (its adapter's `backendId`). */
  id: EngineSessionId;
  /** The protocol it speaks: ACP, codex app-server JSON-RPC, or Claude Code stream-json. */
  protocol: EngineSessionProtocol;
  /** How it was probed: `command` (started, handshake performed); `in-process` for an engine loaded as a package (nothing spawned). */
  probe: EngineProbeKind;
  /** True when the command was found and answered the protocol handshake in a version this package speaks. */
  available: boolean;
  /** The command looked for (the default binary name or the override). */
  command: string;
  /** Absolute path the command resolved to. */
  resolvedPath?: string | undefined;
  /**
   * The handshake: `answered` (the engine answered it; see `error` for an incompatible answer),
   * `failed` (it ended, timed out, answered with an error or with something else), `not_run`
   * (the command was not found).
   */
  handshake: 'answered' | 'failed' | 'not_run';
  /** Milliseconds from start to the handshake's answer (including the engine's start-up). */
  handshakeMs?: number | undefined;
  /** The engine's name as answered (ACP `agentInfo.name`; the other two handshakes carry none). */
  engineName?: string | undefined;
  /** The engine's version as answered (ACP `agentInfo.version`, codex `userAgent`, `claude_code_version`). */
  version?: string | undefined;
  /** The protocol version the engine answered (ACP only; the other two handshakes carry none). */
  protocolVersion?: number | undefined;
  /**
   * Capabilities as the engine answered them: ACP `agentCapabilities` as dotted names of what is
   * on (e.g. `loadSession`, `promptCapabilities.image`); Claude Code's `capabilities` list; empty
   * for codex, whose `initialize` answer names none.
   */
  capabilities?: string[] | undefined;
  /** Why it is not available, as a sentence a person can act on. */
  error?: string | undefined;
}

/** Options of {@link probeEngineSessions}. */
export interface ProbeEngineSessionsOptions {
  /** Command overrides per session backend, e.g. `{ 'codex-app-server': '/opt/codex/bin/codex' }`. @default each engine's usual binary name */
  commands?: Partial<Record<EngineSessionId, string>> | undefined;
  /** Milliseconds the handshake (including start-up) may take per backend. @default 20000 */
  timeoutMs?: number | undefined;
  /**
   * Environment whose `PATH` is searched and from which each engine inherits what its backend's
   * preset allow-lists by default (e.g. `CODEX_*`, `GEMINI_*`). @default process.env
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Directory relative command paths resolve against, and the engines' working directory. @default process.cwd() */
  /**
   * Whose words the `error` sentences use for their fixes: `'api'` names this function's options
   * (`commands`, `timeoutMs`), `'cli'` the `agent-assistant probe` flags (`--command ID=PATH`, `--timeout-ms`).
   * @default 'api'
   */
  advice?: 'api' | 'cli' | undefined;
  cwd?: string | undefined;
}

/** Defaults of the engine session probe options. */
export const DEFAULT_PROBE_ENGINE_SESSIONS_OPTIONS = /* @__PURE__ */ Object.freeze({ timeoutMs: 20_000 });

const KILL_GRACE_MS = 500;
const HANDSHAKE_NAMES: Readonly<Record<EngineSessionProtocol, string>> = /* @__PURE__ */ Object.freeze({
  acp: 'the ACP `initialize` request',
  'codex-app-server': 'the app-server `initialize` request',
  'claude-stream-json': 'the stream-json `control_request` initialize',
  'omp-rpc': 'the RPC `ready` line',
});

/**
 * Checks which engine session backends can run here: finds each engine's command (on `PATH` or at
 * the given path), starts it in session mode, performs the protocol handshake (ACP `initialize`
 * for `gemini-acp`, `opencode-acp`, `qwen-acp`, `copilot-acp` and `hermes-acp`, app-server `initialize` for `codex-app-server`, a
 * stream-json `control_request` initialize for `claude-code-session`) with a short timeout, and
 * stops it. Reports the version, protocol version and capabilities as answered. No model is
 * called and no session is opened. Never throws for a missing or broken engine (that is
 * `available: false` with an `error`); throws `UnknownBackendError` for an unknown id.
 *
 * @example
 * const probes = await probeEngineSessions(['codex-app-server']);
 * for (const probe of probes) console.log(probe.id, probe.available ? probe.version : probe.error);
 */
export async function probeEngineSessions(
  ids: readonly string[] = ENGINE_SESSION_IDS,
  options: ProbeEngineSessionsOptions = {},
): Promise<EngineSessionProbe[]> {
  if (!Array.isArray(ids)) throw new HarnessConfigError('probeEngineSessions ids must be an array of session backend ids.', { field: 'ids' });
  const known = ids.map((id) => knownEngineSessionId(id));
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_ENGINE_SESSIONS_OPTIONS.timeoutMs;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
    throw new HarnessConfigError('probeEngineSessions timeoutMs must be a positive integer.', { field: 'timeoutMs' });
  }
  const node = await loadNodeModules();
  return Promise.all(known.map((id) => probeOne(node, id, timeoutMs, options)));
}

/** `id` as a known session backend id; throws `UnknownBackendError` otherwise. */
function knownEngineSessionId(id: string): EngineSessionId {
  if (typeof id === 'string' && (ENGINE_SESSION_IDS as readonly string[]).includes(id)) return id as EngineSessionId;
  throw new UnknownBackendError(String(id), ENGINE_SESSION_IDS);
}

async function probeOne(node: NodeModules, id: EngineSessionId, timeoutMs: number, options: ProbeEngineSessionsOptions): Promise<EngineSessionProbe> {
  const entry = ENGINE_SESSIONS[id];
  if (entry.inProcess === true) return probeInProcess(id, entry);
  const command = options.commands?.[id] ?? entry.command;
  const parentEnv = options.env ?? node.process.env;
  const cwd = options.cwd ?? node.process.cwd();
  const base = { id, protocol: entry.protocol, probe: 'command' as const, available: false, command };
  const { override, raiseTimeout } = probeAdvice(id, options.advice);
  const lookup = await findExecutable(node, command, { ...parentEnv }, cwd);
  if (!lookup.found) {
    const error =
      lookup.reason === 'not_executable'
        ? `${entry.label} is not available: ${lookup.path} is not executable. Fix its permissions (chmod +x) ${override}.`
        : `${entry.label} is not available: \`${command}\` was not found${command.includes('/') ? '' : ' on PATH'}. Install it with \`${entry.install}\`, ${override}.`;
    return { ...base, handshake: 'not_run', error };
  }
  const env = buildEnvironment({ ...parentEnv }, entry.inheritEnv, entry.env, node.process.platform);
  const started = performance.now();
  const outcome = await engineHandshake(node, { protocol: entry.protocol, command: lookup.path, args: entry.args, cwd, env, timeoutMs, killGraceMs: KILL_GRACE_MS });
  const found = { ...base, resolvedPath: lookup.path };
  const handshakeName = HANDSHAKE_NAMES[entry.protocol];
  const byHand = `Run \`${entry.manual}\` by hand to see what it says`;
  if (outcome.kind === 'answered' || outcome.kind === 'incompatible') {
    const answer = outcome.answer;
    const answered = {
      ...found,
      handshake: 'answered' as const,
      handshakeMs: Math.round(performance.now() - started),
      ...(answer.engineName === undefined ? {} : { engineName: answer.engineName }),
      ...(answer.version === undefined ? {} : { version: answer.version }),
      ...(answer.protocolVersion === undefined ? {} : { protocolVersion: answer.protocolVersion }),
      capabilities: answer.capabilities,
    };
    if (outcome.kind === 'answered') return { ...answered, available: true };
    return {
      ...answered,
      error: `${entry.label} at ${lookup.path} speaks ACP protocol version ${outcome.protocolVersion}; this package speaks version 1. Install a version that speaks ACP 1 with \`${entry.install}\`, ${override}.`,
    };
  }
  // The stderr tails come redacted from the process layer; the engine's own answers are redacted here.
  const redactor = processOutputRedactor(env);
  const redact = (text: string) => redactor.text(text);
  const lastLine = (stderr: string) => {
    const line = stderr.trim().split('\n').at(-1)?.trim() ?? '';
    return line === '' ? '' : ` Its last stderr line: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`;
  };
  const why = (): string => {
    switch (outcome.kind) {
      case 'timed_out':
        return `did not answer ${handshakeName} within ${timeoutMs} ms.${lastLine(outcome.stderrTail)} ${byHand} (a login or set-up prompt?), or ${raiseTimeout}.`;
      case 'error_answer':
        return `answered ${handshakeName} with an error: ${redact(outcome.message)}. ${byHand}; update it with \`${entry.install}\` if it is old.`;
      case 'malformed':
        return `answered ${handshakeName} with something that is not its answer. Update it with \`${entry.install}\` (this version may not speak the protocol), ${override}.`;
      case 'ended': {
        const exit = outcome.exit;
        const how =
          exit.kind === 'spawn_failed'
            ? `could not start (${redact(exit.message)})`
            : exit.kind === 'line_too_long'
              ? `wrote a line longer than ${exit.maxLineBytes} bytes`
              : `exited with ${exit.exitSignal ?? `code ${exit.exitCode}`}`;
        return `${how} before answering ${handshakeName}.${lastLine(outcome.stderrTail)} ${byHand}; if this version does not speak the protocol, update it with \`${entry.install}\`, ${override}.`;
      }
    }
  };
  return { ...found, handshake: 'failed', error: `${entry.label} at ${lookup.path} ${why()}` };
}

/** An engine that runs in this process (the Claude Agent SDK): available when its package loads; nothing is spawned. */
async function probeInProcess(id: EngineSessionId, entry: (typeof ENGINE_SESSIONS)[EngineSessionId]): Promise<EngineSessionProbe> {
  const base = { id, protocol: entry.protocol, probe: 'in-process' as const, command: entry.command, handshake: 'not_run' as const };
  try {
    await loadClaudeAgentSdk();
    return { ...base, available: true };
  } catch (error) {
    return { ...base, available: false, error: `${entry.label} is not available: ${describeError(error, 500)}.` };
  }
}
