import { buildEnvironment } from '../../process/build-environment.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import { describeError } from '../../shared/describe-error.js';
import type { SessionTurnReport } from '../driver/session-turn-report.js';
import type { ResolvedAcpAdapterOptions } from './acp-adapter-options.js';
import { AcpLiveSession, describeExit } from './acp-session.js';

const CLIENT_NAME = '@agent-assistant/harness';
const CLIENT_VERSION = '1';

/**
 * Starts an engine process and opens its ACP session: `initialize`, then `session/load` of the
 * `wanted` session when the engine can (a new session when that fails) or `session/new`. A session
 * that cannot be opened is stopped, and the error carries the end of its stderr.
 */
export async function startAcpSession(
  config: ResolvedAcpAdapterOptions,
  turnSignal: AbortSignal,
  report: SessionTurnReport,
  wanted: string | undefined,
): Promise<AcpLiveSession> {
  const node = await loadNodeModules();
    const env = buildEnvironment(node.process.env, config.inheritEnv, config.env, node.process.platform);
  const session = new AcpLiveSession(node, {
    command: config.command,
    args: config.args,
    cwd: config.cwd,
    env,
    maxLineBytes: config.maxLineBytes,
    maxStderrBytes: config.maxStderrBytes,
    killGraceMs: config.killGraceMs,
    clientName: CLIENT_NAME,
    clientVersion: CLIENT_VERSION,
  });
  const signal = AbortSignal.any([turnSignal, AbortSignal.timeout(config.startupTimeoutMs)]);
  try {
    await session.initialize(CLIENT_NAME, CLIENT_VERSION, signal);
    const cwd = config.cwd ?? node.process.cwd();
    if (wanted !== undefined && session.canLoadSession) {
      try {
        await session.loadSession(wanted, cwd, signal);
        report.note('The session was loaded into a new engine process (session/load).');
      } catch (error) {
        report.note(`session/load failed (${describeError(error, 200)}); a new session was opened.`);
        await session.newSession(cwd, signal);
      }
    } else await session.newSession(cwd, signal);
  } catch (error) {
    const stderr = stderrOf(session);
    const exit = await session.dispose();
    const why = exit.kind === 'disposed' ? describeError(error) : describeExit(exit);
    throw new Error(`the engine session could not be opened: ${why}${stderr}`, { cause: error });
  }
  return session;
}

/** The end of the engine's stderr (secrets are blanked out by the process layer). */
export function stderrOf(session: { readonly engine: { stderrTail(): string } }): string {
  const tail = session.engine.stderrTail().slice(-500).trim();
  return tail === '' ? '' : ` (stderr: ${tail})`;
}
