import { VfsInvalidOptionError } from '@agent-assistant/vfs';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { UnknownBackendError } from '../local/errors/unknown-backend-error.js';
import { describeError } from '../shared/describe-error.js';
import { contextCommand } from './commands/context-command.js';
import { probeCommand } from './commands/probe-command.js';
import { profilesCommand } from './commands/profiles-command.js';
import { projectCommand } from './commands/project-command.js';
import { resumeCommand } from './commands/resume-command.js';
import { runCommand } from './commands/run-command.js';
import { secretCommand } from './commands/secret-command.js';
import type { CliIo } from './internal/cli-io.js';
import { EXIT_CODES } from './internal/exit-codes.js';
import { terminalText } from './internal/terminal-text.js';

const COMMANDS: Readonly<Record<string, (io: CliIo, argv: readonly string[]) => Promise<number>>> = {
  run: runCommand,
  resume: resumeCommand,
  probe: probeCommand,
  profiles: profilesCommand,
  project: projectCommand,
  context: contextCommand,
  secret: secretCommand,
};

/** The top-level `--help`. */
export function mainUsage(): string {
  return [
    'Usage: agent-assistant <command> [options]',
    '',
    'Commands:',
    '  run               run one turn against a provider profile or a local CLI backend',
    '  resume            continue a paused turn (--approve ID, --reject ID, --answer TEXT)',
    '  probe             list the local CLI backends: found, version, path, capabilities',
    '  profiles inspect  check provider profiles without calling a provider or showing a key',
    '  project check     check an agent project folder: every problem with file:line, and warnings',
    '  context packet    build a context packet: chosen files and line ranges under a byte budget',
    '  secret init       write a random continuation key to your config directory (for run → resume)',
    '',
    'Run `agent-assistant <command> --help` for the options of a command.',
    'Exit codes: 0 completed, 1 failed, 2 usage error, 3 needs clarification or awaiting approval,',
    '4 deferred, 130 interrupted.',
  ].join('\n');
}

/** The `agent-assistant` program. Resolves with the exit code; never rejects. */
export async function runCliMain(io: CliIo): Promise<number> {
  const [command, ...rest] = io.argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.stdout(`${mainUsage()}\n`);
    return command === undefined ? EXIT_CODES.usage : 0;
  }
  if (command === '--version' || command === '-v') {
    io.stdout(`${io.version}\n`);
    return 0;
  }
  const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (handler === undefined) {
    io.stderr(
      `agent-assistant: unknown command ${terminalText(JSON.stringify(command.slice(0, 40)))}. Commands: run, resume, probe, profiles, project, context, secret. See agent-assistant --help.\n`,
    );
    return EXIT_CODES.usage;
  }
  try {
    return await handler(io, rest);
  } catch (error) {
    // Error messages carry outside text (file paths, profile names, a server's words): shown escaped.
    io.stderr(`agent-assistant ${command}: ${terminalText(describeError(error))}\n`);
    return HarnessConfigError.isInstance(error) || isNamedConfigError(error) ? EXIT_CODES.usage : EXIT_CODES.failed;
  }
}

/** Configuration errors of other layers (an unknown backend id, an invalid VFS root) are usage errors too. */
function isNamedConfigError(error: unknown): boolean {
  return UnknownBackendError.isInstance(error) || VfsInvalidOptionError.isInstance(error);
}
