import { createLocalBackendAdapter } from '../../local/create-local-backend-adapter.js';
import { LOCAL_BACKEND_IDS, type LocalBackendId } from '../../local/local-backend-ids.js';
import { probeLocalBackends } from '../../local/probe-local-backends.js';
import type { CliIo } from '../internal/cli-io.js';
import { usageError } from '../internal/cli-usage-error.js';
import { formatTable } from '../internal/format-table.js';
import { flagHelp, flagSwitch, integerFlag, parseFlags, type FlagSpecs } from '../internal/parse-flags.js';

/** The flags of `agent-assistant probe`. */
export const PROBE_FLAGS: FlagSpecs = {
  backend: {
    value: 'ID',
    help: `probe only this backend (repeatable): ${LOCAL_BACKEND_IDS.join(', ')}`,
    repeat: true,
  },
  command: {
    value: 'ID=PATH',
    help: 'the executable of backend ID (repeatable), e.g. claude-code=/opt/claude/bin/claude',
    repeat: true,
  },
  'timeout-ms': {
    value: 'MS',
    help: 'how long `--version` may take per backend (default 10000)',
  },
  json: { help: 'print the probes as JSON' },
};

/** The help of `agent-assistant probe`. */
export function probeUsage(): string {
  return [
    'Usage: agent-assistant probe [--backend ID]... [--command ID=PATH]... [--json]',
    '',
    'Lists the local CLI backends: found or not, version, path and what the harness can do with them.',
    'Exit code 0 whatever was found (2 for a usage error).',
    '',
    'Options:',
    ...flagHelp(PROBE_FLAGS),
    `  ${'-h, --help'.padEnd(30)} show this help`,
  ].join('\n');
}

function capabilitiesOf(id: LocalBackendId): string {
  const capabilities = createLocalBackendAdapter(id).describeCapabilities();
  return [
    `tools:${capabilities.toolUse}`,
    `resume:${capabilities.continuationSupport}`,
    `approvals:${capabilities.approvalInterrupts}`,
    ...(capabilities.streaming === true ? ['streaming'] : []),
  ].join(' ');
}

/** `agent-assistant probe`. Resolves with the exit code. @throws HarnessConfigError for usage errors. */
export async function probeCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, PROBE_FLAGS, 'probe');
  if (flags.help) {
    io.stdout(`${probeUsage()}\n`);
    return 0;
  }
  const ids = flags.values.get('backend') ?? LOCAL_BACKEND_IDS;
  const commands: Partial<Record<LocalBackendId, string>> = {};
  for (const entry of flags.values.get('command') ?? []) {
    const at = entry.indexOf('=');
    const id = entry.slice(0, at);
    if (at <= 0 || !(LOCAL_BACKEND_IDS as readonly string[]).includes(id)) {
      throw usageError(
        `--command takes ID=PATH with ID one of ${LOCAL_BACKEND_IDS.join(', ')}, got ${JSON.stringify(entry.slice(0, 80))}.`,
        'command',
      );
    }
    commands[id as LocalBackendId] = entry.slice(at + 1);
  }
  const timeoutMs = integerFlag(flags, 'timeout-ms', 1, 600_000);
  const probes = await probeLocalBackends(ids, {
    commands,
    env: io.env,
    cwd: io.cwd,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  const rows = probes.map((probe) => ({
    ...probe,
    capabilities: capabilitiesOf(probe.id),
  }));
  if (flagSwitch(flags, 'json')) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  io.stdout(
    formatTable(
      ['BACKEND', 'FOUND', 'VERSION', 'PATH', 'CAPABILITIES'],
      rows.map((row) => [row.id, row.available ? 'yes' : 'no', row.version ?? '-', row.resolvedPath ?? row.command, row.capabilities]),
    ),
  );
  for (const row of rows) if (!row.available && row.error !== undefined) io.stdout(`${row.id}: ${row.error}\n`);
  return 0;
}
