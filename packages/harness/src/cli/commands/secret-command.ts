import type { CliIo } from '../internal/cli-io.js';
import { usageError } from '../internal/cli-usage-error.js';
import { CONTINUATION_SECRET_ENV } from '../internal/continuation-secret.js';
import { flagHelp, flagSwitch, parseFlags, type FlagSpecs } from '../internal/parse-flags.js';
import { secretKeyPath, writeSecretKeyFile } from '../internal/secret-key-file.js';
import { terminalText } from '../internal/terminal-text.js';

/** The flags of `agent-assistant secret init`. */
export const SECRET_INIT_FLAGS: FlagSpecs = {
  force: { help: 'replace an existing key (continuations signed with the old one can no longer be resumed)' },
};

/** The help of `agent-assistant secret`. */
export function secretUsage(): string {
  return [
    'Usage: agent-assistant secret init [--force]',
    '',
    'Writes a random continuation key (32 bytes, base64url) to your config directory:',
    '$XDG_CONFIG_HOME/agent-assistant/continuation-secret (default ~/.config/agent-assistant/;',
    'on Windows %APPDATA%\\agent-assistant\\), mode 0600 in a 0700 folder. `run --continuation-out`',
    `and \`resume\` use it when ${CONTINUATION_SECRET_ENV} is not set; a key file that group or others`,
    'may read is refused. Prints where it wrote, never the key.',
    '',
    'Options:',
    ...flagHelp(SECRET_INIT_FLAGS),
    `  ${'-h, --help'.padEnd(30)} show this help`,
  ].join('\n');
}

/** `agent-assistant secret init`. Resolves with the exit code. @throws HarnessConfigError for usage errors. */
export async function secretCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === '-h' || subcommand === '--help') {
    io.stdout(`${secretUsage()}\n`);
    return subcommand === undefined ? 2 : 0;
  }
  if (subcommand !== 'init') throw usageError(`Unknown command \`secret ${subcommand.slice(0, 40)}\`; the one secret command is \`secret init\`.`);
  const flags = parseFlags(rest, SECRET_INIT_FLAGS, 'secret init');
  if (flags.help) {
    io.stdout(`${secretUsage()}\n`);
    return 0;
  }
  const path = secretKeyPath(io.env);
  await writeSecretKeyFile(path, flagSwitch(flags, 'force'));
  io.stdout(
    terminalText(
      `Wrote a new continuation key to ${path} (mode 0600). \`run --continuation-out\` and \`resume\` use it when ${CONTINUATION_SECRET_ENV} is not set.`,
    ) + '\n',
  );
  if (io.env[CONTINUATION_SECRET_ENV] !== undefined && io.env[CONTINUATION_SECRET_ENV] !== '') {
    io.stderr(`Note: ${CONTINUATION_SECRET_ENV} is set in this shell, and wins over the key file.\n`);
  }
  return 0;
}
