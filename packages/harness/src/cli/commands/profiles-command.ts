import { resolve } from 'node:path';
import { inspectProviderProfile } from '../../providers/profiles/inspect-provider-profile.js';
import type { ProviderProfileInspection } from '../../providers/profiles/provider-profile-types.js';
import type { CliIo } from '../internal/cli-io.js';
import { usageError } from '../internal/cli-usage-error.js';
import { formatTable } from '../internal/format-table.js';
import { terminalJson, terminalText } from '../internal/terminal-text.js';
import { flagHelp, flagSwitch, flagValue, parseFlags, type FlagSpecs } from '../internal/parse-flags.js';
import { readProfilesFile } from '../internal/read-profiles-file.js';

/** The flags of `agent-assistant profiles inspect`. */
export const PROFILES_INSPECT_FLAGS: FlagSpecs = {
  profiles: { value: 'FILE', help: 'provider profiles file (required)' },
  profile: {
    value: 'ID',
    help: 'inspect only this profile id or alias (default: every profile)',
  },
  json: { help: 'print the inspections as JSON' },
};

/** The help of `agent-assistant profiles`. */
export function profilesUsage(): string {
  return [
    'Usage: agent-assistant profiles inspect --profiles FILE [--profile ID] [--json]',
    '',
    'Checks provider profiles without calling any provider: protocol, model, endpoint host, whether',
    "the key's environment variable is set (never its value), and what stops a profile from running.",
    'Exit code 0 when every inspected profile may run, 1 when one cannot, 2 for a usage error or an',
    'invalid profiles file.',
    '',
    'Options:',
    ...flagHelp(PROFILES_INSPECT_FLAGS),
    `  ${'-h, --help'.padEnd(30)} show this help`,
  ].join('\n');
}

function keyColumn(inspection: ProviderProfileInspection): string {
  if (inspection.secret === undefined) return 'none needed';
  return `${inspection.secret.name} ${inspection.secret.present ? 'set' : 'not set'}`;
}

/** `agent-assistant profiles inspect`. Resolves with the exit code. @throws HarnessConfigError for usage errors. */
export async function profilesCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === '-h' || subcommand === '--help') {
    io.stdout(`${profilesUsage()}\n`);
    return subcommand === undefined ? 2 : 0;
  }
  if (subcommand !== 'inspect')
    throw usageError(`Unknown command \`profiles ${subcommand.slice(0, 40)}\`; the one profiles command is \`profiles inspect\`.`);
  const flags = parseFlags(rest, PROFILES_INSPECT_FLAGS, 'profiles inspect');
  if (flags.help) {
    io.stdout(`${profilesUsage()}\n`);
    return 0;
  }
  const file = flagValue(flags, 'profiles');
  if (file === undefined) throw usageError('Pass --profiles FILE: the provider profiles file to inspect.', 'profiles');
  const set = await readProfilesFile(resolve(io.cwd, file));
  const only = flagValue(flags, 'profile');
  const ids = only === undefined ? set.profiles.map((profile) => profile.id) : [only];
  const inspections = ids.map((id) => inspectProviderProfile(set, id, { env: io.env }));
  if (flagSwitch(flags, 'json')) io.stdout(`${terminalJson(inspections, 2)}\n`);
  else {
    io.stdout(
      formatTable(
        ['PROFILE', 'PROTOCOL', 'MODEL', 'ENDPOINT', 'KEY', 'RUNNABLE'],
        inspections.map((inspection) => [
          inspection.alias === undefined ? inspection.id : `${inspection.alias} → ${inspection.id}`,
          inspection.protocol,
          inspection.model,
          `${inspection.endpointHost}${inspection.encrypted ? '' : ' (http)'}`,
          keyColumn(inspection),
          inspection.runnable === 'no' ? 'no' : 'not verified',
        ]),
      ),
    );
    for (const inspection of inspections) {
      for (const problem of inspection.problems) io.stdout(`${terminalText(`${inspection.id}: ${problem}`)}\n`);
    }
  }
  return inspections.some((inspection) => inspection.runnable === 'no') ? 1 : 0;
}
