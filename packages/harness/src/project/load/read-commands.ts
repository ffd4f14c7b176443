import type { VfsProvider } from '@agent-assistant/vfs';
import type { ProjectCommand } from '../agent-project-types.js';
import type { ProjectLog } from './project-log.js';
import { PROJECT_NAME_PATTERN, projectPath, quoteName } from './project-names.js';
import { readMarkdownFile } from './read-markdown-file.js';
import { listProjectDir, readProjectFile } from './read-project-file.js';
import { readText, warnUnknownKeys, type FileScope } from './yaml-fields.js';

/** The frontmatter keys of a command file. */
export const COMMAND_FILE_KEYS = ['description', 'agent'] as const;
/** Longest command description, in characters. */
const MAX_COMMAND_DESCRIPTION_LENGTH = 1024;

/** A command as read, with the line of its `agent` key for the check against the manifest. */
export interface CommandFile extends ProjectCommand {
  readonly agentLine: number | undefined;
}

/**
 * Reads every `commands/<name>.md` under the project root, in name order: a prompt template a
 * product expands into a turn's message (`$ARGUMENTS`). Problems and warnings go to `log`; a
 * command with a problem is left out. Files that are not `.md` and folders are warnings.
 */
export async function readCommands(
  vfs: VfsProvider,
  root: string,
  log: ProjectLog,
  limits: { maxCommands: number; maxCommandFileBytes: number },
): Promise<Map<string, CommandFile>> {
  const commands = new Map<string, CommandFile>();
  const listing = await listProjectDir(vfs, projectPath(root, 'commands'), limits.maxCommands + 1);
  if (listing.status === 'missing') return commands;
  if (listing.status === 'refused') {
    log.problem('commands', `The commands folder ${listing.message}.`);
    return commands;
  }
  const entries = Array.isArray(listing.entries) ? listing.entries : [];
  if (entries.length > limits.maxCommands) {
    log.problem('commands', `The commands folder holds more than the limit of ${limits.maxCommands} entries.`);
    return commands;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const base = typeof entry?.path === 'string' ? entry.path.slice(entry.path.lastIndexOf('/') + 1) : '';
    if (entry?.type !== 'file' || !base.endsWith('.md')) {
      log.warning(`commands/${base}`, 'Not a command file (commands/<name>.md); ignored.');
      continue;
    }
    files.push(base);
  }
  for (const base of files.sort()) {
    const name = base.slice(0, -'.md'.length);
    const file = `commands/${base}`;
    if (!PROJECT_NAME_PATTERN.test(name)) {
      log.problem(file, `The command name ${quoteName(name)} is not valid: use 1 to 64 letters, digits, _, - or ., not starting with . or -.`);
      continue;
    }
    const command = await readCommand(vfs, root, name, file, log, limits.maxCommandFileBytes);
    if (command !== undefined) commands.set(name, command);
  }
  return commands;
}

async function readCommand(vfs: VfsProvider, root: string, name: string, file: string, log: ProjectLog, maxBytes: number): Promise<CommandFile | undefined> {
  const path = projectPath(root, file);
  const read = await readProjectFile(vfs, path, maxBytes);
  if (read.status === 'missing') return undefined;
  if (read.status === 'refused') {
    log.problem(file, `The command file ${read.message}.`);
    return undefined;
  }
  const scope: FileScope = { log, file };
  const markdown = await readMarkdownFile(scope, read.text);
  if (markdown === undefined) return undefined;
  const before = log.problems.length;
  const { entries } = markdown.frontmatter;
  warnUnknownKeys(scope, markdown.frontmatter, COMMAND_FILE_KEYS, 'the command frontmatter');
  const description = readText(scope, entries.get('description'), 'description', MAX_COMMAND_DESCRIPTION_LENGTH);
  const agentEntry = entries.get('agent');
  const agent = readText(scope, agentEntry, 'agent', 64);
  if (markdown.body === '') log.problem(file, 'The command file has no body: it is the template a command expands to.', { line: 1 });
  if (log.problems.length > before) return undefined;
  return Object.freeze({ name, description, agent, template: markdown.body, path, agentLine: agentEntry?.line });
}
