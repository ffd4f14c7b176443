import { createLocalBackendAdapter } from '../../local/create-local-backend-adapter.js';
import { LOCAL_BACKEND_IDS, type LocalBackendId } from '../../local/local-backend-ids.js';
import { probeLocalBackends } from '../../local/probe-local-backends.js';
import type { ExecutionAdapter } from '../../execution/types.js';
import { createGeminiAcpAdapter, createOpenCodeAcpAdapter } from '../../sessions/acp/acp-presets.js';
import { createClaudeCodeSessionAdapter } from '../../sessions/claude-code-session/claude-code-session-execution-adapter.js';
import { createCodexAppServerAdapter } from '../../sessions/codex-app-server/codex-app-server-execution-adapter.js';
import { createClaudeAgentSdkAdapter } from '../../sessions/claude-agent-sdk/claude-agent-sdk-adapter.js';
import { createOmpRpcAdapter } from '../../sessions/omp-rpc/omp-rpc-adapter.js';
import { createCopilotAcpAdapter } from '../../sessions/acp/copilot-acp-preset.js';
import { createHermesAcpAdapter } from '../../sessions/acp/hermes-acp-preset.js';
import { createQwenAcpAdapter } from '../../sessions/acp/qwen-acp-preset.js';
import { ENGINE_SESSION_IDS, probeEngineSessions, type EngineSessionId } from '../../sessions/probe-engine-sessions.js';
import type { CliIo } from '../internal/cli-io.js';
import { usageError } from '../internal/cli-usage-error.js';
import { formatTable } from '../internal/format-table.js';
import { terminalJson, terminalText } from '../internal/terminal-text.js';
import { flagHelp, flagSwitch, integerFlag, parseFlags, type FlagSpecs } from '../internal/parse-flags.js';

/** The flags of `agent-assistant probe`. */
export const PROBE_FLAGS: FlagSpecs = {
  backend: {
    value: 'ID',
    help: `probe only this backend (repeatable): ${[...LOCAL_BACKEND_IDS, ...ENGINE_SESSION_IDS].join(', ')}`,
    repeat: true,
  },
  sessions: {
    help: `also probe the engine session backends (${ENGINE_SESSION_IDS.join(', ')}): start each and answer its protocol handshake`,
  },
  command: {
    value: 'ID=PATH',
    help: 'the executable of backend ID (repeatable), e.g. claude-code=/opt/claude/bin/claude',
    repeat: true,
  },
  'timeout-ms': {
    value: 'MS',
    help: 'how long `--version` (or a session handshake) may take per backend (default 10000; 20000 for sessions)',
  },
  json: { help: 'print the probes as JSON' },
};

/** The help of `agent-assistant probe`. */
export function probeUsage(): string {
  return [
    'Usage: agent-assistant probe [--backend ID]... [--sessions] [--command ID=PATH]... [--json]',
    '',
    'Lists the local CLI backends: found or not, version, path and what the harness can do with them.',
    'With --sessions (or a session backend id in --backend), also starts each engine in session mode',
    'and checks that it answers its protocol handshake (ACP, codex app-server, Claude Code stream-json, omp RPC).',
    'Exit code 0 whatever was found (2 for a usage error).',
    '',
    'Options:',
    ...flagHelp(PROBE_FLAGS),
    `  ${'-h, --help'.padEnd(30)} show this help`,
  ].join('\n');
}

const SESSION_ADAPTERS: Readonly<Record<EngineSessionId, () => ExecutionAdapter>> = Object.freeze({
  'gemini-acp': () => createGeminiAcpAdapter(),
  'opencode-acp': () => createOpenCodeAcpAdapter(),
  'qwen-acp': () => createQwenAcpAdapter(),
  'copilot-acp': () => createCopilotAcpAdapter(),
  'hermes-acp': () => createHermesAcpAdapter(),
  'codex-app-server': () => createCodexAppServerAdapter(),
  'claude-code-session': () => createClaudeCodeSessionAdapter(),
  'omp-rpc': () => createOmpRpcAdapter(),
  'claude-agent-sdk': () => createClaudeAgentSdkAdapter(),
});

const isSessionId = (id: string): id is EngineSessionId => (ENGINE_SESSION_IDS as readonly string[]).includes(id);
const isLocalId = (id: string): id is LocalBackendId => (LOCAL_BACKEND_IDS as readonly string[]).includes(id);

/** What the harness can do with a backend, from its adapter's `describeCapabilities()` (constructing it starts nothing). */
function capabilitiesOf(id: LocalBackendId | EngineSessionId): string {
  const capabilities = (isSessionId(id) ? SESSION_ADAPTERS[id]() : createLocalBackendAdapter(id)).describeCapabilities();
  return [
    `tools:${capabilities.toolUse}`,
    `resume:${capabilities.continuationSupport}`,
    `approvals:${capabilities.approvalInterrupts}`,
    ...(capabilities.streaming === true ? ['streaming'] : []),
    ...(capabilities.steer === true ? ['steer'] : []),
  ].join(' ');
}

/** `agent-assistant probe`. Resolves with the exit code. @throws HarnessConfigError for usage errors. */
export async function probeCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, PROBE_FLAGS, 'probe');
  if (flags.help) {
    io.stdout(`${probeUsage()}\n`);
    return 0;
  }
  const known = [...LOCAL_BACKEND_IDS, ...ENGINE_SESSION_IDS];
  const requested = flags.values.get('backend');
  for (const id of requested ?? []) {
    if (!isLocalId(id) && !isSessionId(id)) throw usageError(`--backend takes one of ${known.join(', ')}, got ${JSON.stringify(id.slice(0, 80))}.`, 'backend');
  }
  const withSessions = flagSwitch(flags, 'sessions');
  const localIds = requested === undefined ? LOCAL_BACKEND_IDS : requested.filter(isLocalId);
  const sessionIds = ENGINE_SESSION_IDS.filter((id) => withSessions || (requested ?? []).includes(id));
  const localCommands: Partial<Record<LocalBackendId, string>> = {};
  const sessionCommands: Partial<Record<EngineSessionId, string>> = {};
  for (const entry of flags.values.get('command') ?? []) {
    const at = entry.indexOf('=');
    const id = entry.slice(0, at);
    if (at <= 0 || !(isLocalId(id) || isSessionId(id))) {
      throw usageError(`--command takes ID=PATH with ID one of ${known.join(', ')}, got ${JSON.stringify(entry.slice(0, 80))}.`, 'command');
    }
    if (isSessionId(id)) sessionCommands[id] = entry.slice(at + 1);
    else localCommands[id] = entry.slice(at + 1);
  }
  const timeoutMs = integerFlag(flags, 'timeout-ms', 1, 600_000);
  const common = { env: io.env, cwd: io.cwd, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  const [localProbes, sessionProbes] = await Promise.all([
    localIds.length === 0 ? [] : probeLocalBackends(localIds, { ...common, commands: localCommands, advice: 'cli' }),
    sessionIds.length === 0 ? [] : probeEngineSessions(sessionIds, { ...common, commands: sessionCommands, advice: 'cli' }),
  ]);
  const rows = [
    ...localProbes.map((probe) => ({ ...probe, capabilities: capabilitiesOf(probe.id) })),
    // A session probe's own `capabilities` (what the engine answered) become `engineCapabilities`.
    ...sessionProbes.map(({ capabilities: engineCapabilities, ...probe }) => ({ ...probe, engineCapabilities, capabilities: capabilitiesOf(probe.id) })),
  ];
  if (flagSwitch(flags, 'json')) {
    io.stdout(`${terminalJson(rows, 2)}\n`);
    return 0;
  }
  io.stdout(
    formatTable(
      ['BACKEND', 'FOUND', 'VERSION', 'PATH', 'CAPABILITIES'],
      rows.map((row) => [row.id, row.available ? 'yes' : 'no', row.version ?? '-', row.resolvedPath ?? row.command, row.capabilities]),
    ),
  );
  for (const row of rows) if (!row.available && row.error !== undefined) io.stdout(`${row.id}: ${terminalText(row.error)}\n`);
  return 0;
}
