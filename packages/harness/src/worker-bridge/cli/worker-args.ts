import { parseArgs } from 'node:util';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { parseCommandLine, type CommandLineFlag } from '../../shared/parse-command-line.js';

/** The CLIs the worker can run. */
export const WORKER_CLIS = ['claude', 'codex', 'opencode', 'gemini', 'bash'] as const;

/** One of {@link WORKER_CLIS}. */
export type WorkerCli = (typeof WORKER_CLIS)[number];

/** The settings of `agent-assistant-worker`, from flags and environment. */
export interface WorkerArgs {
  help: boolean;
  cli: WorkerCli;
  channel: string;
  workerName: string;
  model: string | undefined;
  timeoutMs: number;
  cwd: string;
  concurrency: number;
  /** The CLI's executable, when not the usual name on PATH. */
  command: string | undefined;
  /** The bash runner's script. */
  script: string | undefined;
  /** Senders whose requests are accepted; empty: any. */
  allowFrom: string[];
}

/** Flags, their environment fallbacks, and help text. */
const FLAGS = {
  cli: { env: 'BYOH_WORKER_CLI', help: `CLI to run: ${WORKER_CLIS.join(', ')} (default claude)` },
  channel: { env: 'RELAY_CHANNEL', help: 'relay channel of the conversation (default specialists)' },
  'worker-name': { env: 'RELAY_WORKER', help: "this worker's name on the relay (default specialist-worker)" },
  model: { env: 'RELAY_MODEL', help: 'model passed to the CLI (default: the CLI’s own)' },
  'timeout-ms': { env: 'BYOH_WORKER_TIMEOUT_MS', help: 'longest run of one request in ms (default 120000)' },
  cwd: { env: 'BYOH_WORKER_CWD', help: 'project directory: broker discovery and the CLI’s workspace (default: current directory)' },
  concurrency: { env: 'BYOH_WORKER_CONCURRENCY', help: 'requests run at once (default 2)' },
  command: { env: 'BYOH_WORKER_COMMAND', help: 'path of the CLI executable (default: the usual name on PATH)' },
  script: { env: 'BYOH_WORKER_SCRIPT', help: 'bash only: the script run with the prompt on stdin (default cat)' },
  'allow-from': { env: 'BYOH_WORKER_ALLOW_FROM', help: 'accept requests only from these names (comma-separated; default any)' },
} as const;

type FlagName = keyof typeof FLAGS;

const COMMAND_LINE_FLAGS: ReadonlyMap<string, CommandLineFlag> = /* @__PURE__ */ new Map(
  Object.keys(FLAGS).map((name) => [name, { takesValue: true, placeholder: 'value' }]),
);

/** The `--help` text. */
export function workerUsage(): string {
  const lines = Object.entries(FLAGS).map(([name, flag]) => `  --${`${name} <value>`.padEnd(22)} ${flag.help} [env ${flag.env}]`);
  return [
    'Usage: agent-assistant-worker [options]',
    '',
    'Runs turns sent over Agent Relay with a local CLI and replies on the same thread.',
    'Finds the broker through {cwd}/.agentworkforce/relay/connection.json (or $AGENT_RELAY_STATE_DIR).',
    '',
    'Options:',
    ...lines,
    `  ${'-h, --help'.padEnd(24)} show this help`,
  ].join('\n');
}

const fail = (field: string, message: string): never => {
  throw new HarnessConfigError(message, { field });
};

function integer(value: string, field: string, min: number, max: number): number {
  const number = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) fail(field, `--${field} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}.`);
  return number;
}

/**
 * Reads the worker's flags (`--name value` or `--name=value`, with `node:util` `parseArgs`),
 * falling back to environment variables, then defaults.
 * @throws HarnessConfigError for an unknown flag (naming the closest one), a missing, repeated or
 * invalid value.
 */
export function parseWorkerArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, defaultCwd: string): WorkerArgs {
  const parsed = parseCommandLine(parseArgs, argv, COMMAND_LINE_FLAGS, 'agent-assistant-worker');
  if (!parsed.ok) throw new HarnessConfigError(parsed.message, { field: parsed.field });
  const { values, help } = parsed;
  const read = (name: FlagName): string | undefined => {
    const value = values.get(name)?.[0] ?? env[FLAGS[name].env];
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  const cli = read('cli') ?? 'claude';
  if (!(WORKER_CLIS as readonly string[]).includes(cli)) fail('cli', `--cli must be one of ${WORKER_CLIS.join(', ')}, got ${JSON.stringify(cli)}.`);
  const script = read('script');
  if (script !== undefined && cli !== 'bash') fail('script', '--script is for --cli bash only.');
  const model = read('model');
  if (model !== undefined && cli === 'bash') fail('model', '--model does not apply to --cli bash.');
  return {
    help,
    cli: cli as WorkerCli,
    channel: read('channel') ?? 'specialists',
    workerName: read('worker-name') ?? 'specialist-worker',
    model,
    timeoutMs: integer(read('timeout-ms') ?? '120000', 'timeout-ms', 1, 2_147_483_647),
    cwd: read('cwd') ?? defaultCwd,
    concurrency: integer(read('concurrency') ?? '2', 'concurrency', 1, 1000),
    command: read('command'),
    script,
    allowFrom: (read('allow-from') ?? '').split(',').map((name) => name.trim()).filter((name) => name !== ''),
  };
}
