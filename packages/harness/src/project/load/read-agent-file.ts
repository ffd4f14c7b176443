import type { AgentMode, AgentToolsSetting } from '../agent-project-types.js';
import type { PermissionRuleSet } from '../permission-types.js';
import type { YamlEntry } from './parse-yaml.js';
import { TOOL_NAME_PATTERN } from './project-names.js';
import { readMarkdownFile } from './read-markdown-file.js';
import { readPermission } from './read-permission.js';
import { badValue, kindOf, readNameList, readNumber, readText, warnUnknownKeys, type FileScope } from './yaml-fields.js';

/** What an agent file says. */
export interface AgentFileSettings {
  readonly description: string | undefined;
  readonly model: string | undefined;
  readonly mode: AgentMode;
  readonly temperature: number | undefined;
  readonly topP: number | undefined;
  readonly steps: number | undefined;
  readonly permission: PermissionRuleSet;
  readonly tools: AgentToolsSetting;
  readonly prompt: string;
}

/** The frontmatter keys of an agent file. */
export const AGENT_FILE_KEYS = ['description', 'model', 'mode', 'temperature', 'top_p', 'steps', 'permission', 'tools'] as const;
const MODES: readonly AgentMode[] = ['primary', 'subagent', 'all'];
/** Largest `steps` accepted. */
export const MAX_AGENT_STEPS = 1000;

/** Reads an agent file's frontmatter and body. Undefined after a problem (all of them reported). */
export async function readAgentFile(scope: FileScope, text: string): Promise<AgentFileSettings | undefined> {
  const markdown = await readMarkdownFile(scope, text);
  if (markdown === undefined) return undefined;
  const { entries } = markdown.frontmatter;
  warnUnknownKeys(scope, markdown.frontmatter, AGENT_FILE_KEYS, 'the agent frontmatter');
  const before = scope.log.problems.length;
  const description = readText(scope, entries.get('description'), 'description', 4096);
  const model = readText(scope, entries.get('model'), 'model', 256);
  const mode = readMode(scope, entries.get('mode'));
  const temperature = readNumber(scope, entries.get('temperature'), 'temperature', { min: 0, max: 2 });
  const topP = readNumber(scope, entries.get('top_p'), 'top_p', { min: 0, max: 1 });
  const steps = readNumber(scope, entries.get('steps'), 'steps', { min: 1, max: MAX_AGENT_STEPS, integer: true });
  const permission = readPermission(scope, entries.get('permission'));
  const tools = readToolsSetting(scope, entries.get('tools'));
  if (markdown.body === '') scope.log.warning(scope.file, 'The agent file has no body: the agent has an empty system prompt.');
  if (scope.log.problems.length > before || permission === undefined || tools === undefined) return undefined;
  return { description, model, mode, temperature, topP, steps, permission, tools, prompt: markdown.body };
}

function readMode(scope: FileScope, entry: YamlEntry | undefined): AgentMode {
  if (entry === undefined) return 'all';
  const { value } = entry;
  if (value.kind === 'scalar' && typeof value.value === 'string' && (MODES as readonly string[]).includes(value.value)) return value.value as AgentMode;
  badValue(scope, 'mode', entry, `must be primary, subagent or all; got ${value.kind === 'scalar' && typeof value.value === 'string' ? JSON.stringify(value.value.slice(0, 80)) : kindOf(value)}.`);
  return 'all';
}

const TOOLS_SHAPE = 'must be all, none, a list of tool names, or { exclude: [tool names] }';

function readToolsSetting(scope: FileScope, entry: YamlEntry | undefined): AgentToolsSetting | undefined {
  if (entry === undefined) return { kind: 'all' };
  const { value } = entry;
  if (value.kind === 'scalar' && value.value === 'all') return { kind: 'all' };
  if (value.kind === 'scalar' && value.value === 'none') return { kind: 'none' };
  if (value.kind === 'list') {
    const names = readNameList(scope, entry, 'tools', TOOL_NAME_PATTERN, 'tool');
    return names === undefined ? undefined : { kind: 'list', names: Object.freeze(names) };
  }
  if (value.kind === 'map' && value.entries.size === 1 && value.entries.has('exclude')) {
    const names = readNameList(scope, value.entries.get('exclude')!, 'tools.exclude', TOOL_NAME_PATTERN, 'tool');
    return names === undefined ? undefined : { kind: 'exclude', names: Object.freeze(names) };
  }
  badValue(scope, 'tools', entry, `${TOOLS_SHAPE}; got ${value.kind === 'scalar' && typeof value.value === 'string' ? JSON.stringify(value.value.slice(0, 80)) : kindOf(value)}.`);
  return undefined;
}
