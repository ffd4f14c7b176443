import { resolve } from 'node:path';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { AgentProjectError, formatAgentProjectIssue } from '../../project/agent-project-error.js';
import type { AgentProject, AgentProjectIssue } from '../../project/agent-project-types.js';
import { describeAgentProject } from '../../project/describe/describe-agent-project.js';
import { loadAgentProject } from '../../project/load/load-agent-project.js';
import type { CliIo } from '../internal/cli-io.js';
import { usageError } from '../internal/cli-usage-error.js';
import { EXIT_CODES } from '../internal/exit-codes.js';
import { flagHelp, flagSwitch, parseFlags, type FlagSpecs } from '../internal/parse-flags.js';
import { terminalText } from '../internal/terminal-text.js';

/** The flags of `agent-assistant project check`. */
export const PROJECT_CHECK_FLAGS: FlagSpecs = {
  json: { help: 'print the result as JSON: { ok, project } or { ok, problems, warnings }' },
};

/** The help of `agent-assistant project`. */
export function projectUsage(): string {
  return [
    'Usage: agent-assistant project check DIR [--json]',
    '',
    'Loads the agent project in DIR (agent-project.yaml or .json, agents/, skills/, AGENTS.md) the way',
    'a run would, and prints every problem as file:line: message, then the warnings. Nothing is sent',
    'to a provider. Exit code 0 when the project loads (warnings allowed), 1 when it has problems,',
    '2 for a usage error (a bad flag, DIR missing or not a folder).',
    '',
    'Options:',
    ...flagHelp(PROJECT_CHECK_FLAGS),
    `  ${'-h, --help'.padEnd(30)} show this help`,
  ].join('\n');
}

const line = (prefix: string, issue: AgentProjectIssue) => `${prefix}${terminalText(formatAgentProjectIssue(issue))}\n`;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function summary(project: AgentProject): string {
  const agents = [...project.agents.values()].map((agent) => `${agent.name}${agent.name === project.defaultAgent ? '*' : ''} (${agent.mode})`);
  const instructions = project.instructions === null ? 'no instructions' : `${project.instructions.info.source} (${project.instructions.info.bytes} bytes, sha ${project.instructions.info.sha})`;
  return terminalText(`${plural(agents.length, 'agent')}: ${agents.join(', ')}; ${plural(project.skills.size, 'skill')}; ${instructions}`);
}

/** `agent-assistant project check DIR`. Resolves with the exit code. @throws HarnessConfigError for usage errors. */
export async function projectCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || subcommand === '-h' || subcommand === '--help') {
    io.stdout(`${projectUsage()}\n`);
    return subcommand === undefined ? EXIT_CODES.usage : 0;
  }
  if (subcommand !== 'check') throw usageError(`Unknown command \`project ${subcommand.slice(0, 40)}\`; the one project command is \`project check DIR\`.`);
  const positional = rest.filter((arg) => !arg.startsWith('-'));
  const flags = parseFlags(
    rest.filter((arg) => arg.startsWith('-')),
    PROJECT_CHECK_FLAGS,
    'project check',
  );
  if (flags.help) {
    io.stdout(`${projectUsage()}\n`);
    return 0;
  }
  if (positional.length !== 1) throw usageError('Pass one DIR: the folder of the agent project to check (agent-assistant project check DIR).', 'DIR');
  const json = flagSwitch(flags, 'json');
  const vfs = createNodeFsVfs({ root: resolve(io.cwd, positional[0]!) });
  let project: AgentProject;
  try {
    project = await loadAgentProject(vfs);
  } catch (error) {
    if (!AgentProjectError.isInstance(error)) throw error;
    if (json) io.stdout(`${JSON.stringify({ ok: false, problems: error.problems, warnings: error.warnings }, null, 2)}\n`);
    else {
      for (const problem of error.problems) io.stdout(line('', problem));
      for (const warning of error.warnings) io.stdout(line('warning: ', warning));
      io.stdout(`${plural(error.problems.length, 'problem')}, ${plural(error.warnings.length, 'warning')}: the project does not load.\n`);
    }
    return EXIT_CODES.failed;
  }
  if (json) io.stdout(`${JSON.stringify({ ok: true, project: describeAgentProject(project) }, null, 2)}\n`);
  else {
    for (const warning of project.warnings) io.stdout(line('warning: ', warning));
    io.stdout(`ok: ${summary(project)}${project.warnings.length === 0 ? '' : `; ${plural(project.warnings.length, 'warning')}`}\n`);
  }
  return EXIT_CODES.completed;
}
