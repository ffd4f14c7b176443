import type { VfsEntry, VfsProvider, VfsReadResult } from '@agent-assistant/vfs';
import * as v from '../../shared/validation/index.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { describeError } from '../../shared/describe-error.js';
import { createToolRegistry, type TypedToolRegistry } from '../../tools/create-tool-registry.js';
import { defineTool } from '../../tools/define-tool.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { checkedInput } from '../../tools/checked-input.js';
import { ToolExecutionError } from '../../tools/tool-execution-error.js';
import { toolOutput } from '../../tools/tool-output.js';
import { normalizeSourcePath } from '../../shared/normalize-source-path.js';
import { utf8Window } from '../../shared/utf8-bytes.js';
import { SKILL_TOOL_NAME } from './skill-tool-names.js';

/** One skill the `skill` tool can load (a project's skill maps onto it as it is). */
export interface SkillToolSkill {
  /** The name the model passes: `[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}`. */
  readonly name: string;
  /** When to use it, written for the model: listed in the tool's description (at most 1024 characters are shown). */
  readonly description: string;
  /** VFS path of the skill's folder (e.g. `/skills/release-notes`); its files are read from there. Not `/`. */
  readonly directory: string;
  /** The body of its `SKILL.md` without the frontmatter: what loading the skill returns. */
  readonly instructions: string;
}

/** Options of {@link createSkillToolRegistry}. */
export interface SkillToolOptions {
  /** The VFS the skills' folders are in (the project's). */
  vfs: VfsProvider;
  /** The skills the agent is granted, at least one, with unique names. Nothing else can be loaded. */
  skills: readonly SkillToolSkill[];
  /**
   * Bytes of text one call returns (UTF-8, 1 to 10485760), of the instructions or of a file; a
   * longer text is cut on a character boundary and the model continues with `offset`.
   * @default 51200 (50 KiB)
   */
  maxBytes?: number | undefined;
}

const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const MAX_DESCRIPTION_CHARS = 1024;
const MAX_SKILLS = 1000;
/** Most files named when a skill is loaded. */
const MAX_LISTED_FILES = 100;
const MAX_PATH_CHARS = 1024;

interface Skill extends SkillToolSkill {
  /** The normalised folder path. */
  readonly folder: string;
}

/**
 * Creates the `skill` tool: skills loaded on demand, never injected whole into the prompt. Its
 * description lists the granted skills' names and descriptions (never their bodies). Called with
 * a `name`, it returns that skill's instructions and the paths of its other files; with a `path`
 * as well, that file of the skill's folder. Text is bounded by `maxBytes` per call (`offset`
 * continues). An unknown name, a path outside the skill's folder (`..`, or a symlink the VFS
 * refuses), a missing or binary file are errors the model sees. Worker-safe: it reads only
 * through the VFS.
 * @throws HarnessConfigError when there is no skill, a skill is malformed, two share a name, or
 *   an option is out of range.
 * @example
 * ```ts
 * const tools = createSkillToolRegistry({ vfs, skills: [{ name: 'release-notes', description: 'Write release notes.', directory: '/skills/release-notes', instructions }] });
 * ```
 */
export function createSkillToolRegistry(options: SkillToolOptions): TypedToolRegistry {
  const vfs = options?.vfs;
  if (typeof vfs?.read !== 'function' || typeof vfs.list !== 'function') {
    throw new HarnessConfigError('createSkillToolRegistry needs vfs, the VfsProvider the skills are in.', { field: 'vfs' });
  }
  const skills = readSkills(options.skills);
  const maxBytes = boundedOption(options.maxBytes, 51_200, 10_485_760, 'maxBytes');
  const names = [...skills.keys()];
  const tool = defineTool({
    name: SKILL_TOOL_NAME,
    description: describeSkills(skills),
    input: checkedInput(
      {
        properties: {
          name: { type: 'string', enum: names, description: 'The skill to load.' },
          path: {
            type: 'string',
            maxLength: MAX_PATH_CHARS,
            description: "A file of the skill, relative to its folder (as listed when the skill is loaded). Omit it to load the skill's instructions.",
          },
          offset: { type: 'integer', minimum: 0, description: 'Byte offset to continue a cut text from. @default 0' },
        },
        required: ['name'],
      },
      () =>
        v.object({
          name: v.string().check(v.minLength(1), v.maxLength(200)),
          path: v.optional(v.string().check(v.minLength(1), v.maxLength(MAX_PATH_CHARS))),
          offset: v.optional(v.int().check(v.gte(0))),
        }),
    ),
    execute: async ({ name, path, offset }) => {
      const skill = skills.get(name);
      if (skill === undefined) {
        throw new ToolExecutionError(`There is no skill named ${quote(name)} to load. Skills: ${names.join(', ')}.`, {
          reason: 'skill_not_found',
          retryable: true,
        });
      }
      return path === undefined ? loadInstructions(vfs, skill, offset ?? 0, maxBytes) : readSkillFile(vfs, skill, path, offset ?? 0, maxBytes);
    },
  });
  return createToolRegistry([tool]);
}

function readSkills(value: unknown): Map<string, Skill> {
  if (!Array.isArray(value) || value.length === 0) {
    throw new HarnessConfigError('skills must be a non-empty array: offer the skill tool only when a skill is granted.', { field: 'skills' });
  }
  if (value.length > MAX_SKILLS) throw new HarnessConfigError(`skills may hold at most ${String(MAX_SKILLS)} skills.`, { field: 'skills' });
  const skills = new Map<string, Skill>();
  (value as unknown[]).forEach((entry, index) => {
    const field = `skills[${String(index)}]`;
    const { name, description, directory, instructions } = (entry ?? {}) as Partial<Record<keyof SkillToolSkill, unknown>>;
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
      throw new HarnessConfigError(`${field}.name must match ${String(NAME_PATTERN)}.`, { field: `${field}.name` });
    }
    if (skills.has(name)) throw new HarnessConfigError(`Two skills are named ${quote(name)}.`, { field: `${field}.name` });
    if (typeof description !== 'string' || description.trim() === '') {
      throw new HarnessConfigError(`${field}.description must be a non-empty string.`, { field: `${field}.description` });
    }
    if (typeof instructions !== 'string') {
      throw new HarnessConfigError(`${field}.instructions must be a string.`, { field: `${field}.instructions` });
    }
    const folder = typeof directory === 'string' ? normalizeSourcePath(directory) : undefined;
    if (typeof directory !== 'string' || folder === undefined || !folder.ok || folder.path === '/') {
      throw new HarnessConfigError(`${field}.directory must be the VFS path of the skill's folder (not /).`, { field: `${field}.directory` });
    }
    skills.set(name, { name, description, directory, instructions, folder: folder.path });
  });
  return skills;
}

function describeSkills(skills: ReadonlyMap<string, Skill>): string {
  const lines = [...skills.values()].map((skill) => {
    const text = skill.description.replace(/\s+/g, ' ').trim();
    return `- ${skill.name}: ${text.length > MAX_DESCRIPTION_CHARS ? `${text.slice(0, MAX_DESCRIPTION_CHARS)}…` : text}`;
  });
  return (
    'Load a skill: instructions for a kind of task, with files that help. When a task matches a skill below, ' +
    'load it by name first and follow its instructions; read a file it names with `path` (relative to the skill). ' +
    `Skills:\n${lines.join('\n')}`
  );
}

async function loadInstructions(vfs: VfsProvider, skill: Skill, offset: number, maxBytes: number) {
  const window = utf8Window(skill.instructions, offset, maxBytes);
  const files = offset === 0 ? await listFiles(vfs, skill) : [];
  const parts = [window.text];
  const note = cutNote(window, `the instructions of ${skill.name}`, skill.name, undefined);
  if (note !== undefined) parts.push(note);
  if (files.length > 0) {
    parts.push(`Files of this skill (read one with ${SKILL_TOOL_NAME} and its path):\n${files.map((file) => `- ${file}`).join('\n')}`);
  }
  return toolOutput({
    text: parts.join('\n\n'),
    data: { skill: skill.name, directory: skill.folder, ...windowFacts(window), files },
  });
}

/** Paths of the skill's files relative to its folder, `SKILL.md` left out; none when the folder cannot be listed. */
async function listFiles(vfs: VfsProvider, skill: Skill): Promise<string[]> {
  let entries: VfsEntry[];
  try {
    const listed: unknown = await vfs.list(skill.folder, { depth: 5, limit: MAX_LISTED_FILES + 1 });
    entries = Array.isArray(listed) ? (listed as VfsEntry[]) : [];
  } catch {
    return [];
  }
  const prefix = `${skill.folder}/`;
  const files: string[] = [];
  for (const entry of entries.slice(0, MAX_LISTED_FILES)) {
    const path = typeof entry?.path === 'string' ? entry.path : '';
    if (entry.type === 'dir' || !path.startsWith(prefix)) continue;
    const relative = path.slice(prefix.length);
    if (relative !== 'SKILL.md') files.push(relative);
  }
  return files;
}

async function readSkillFile(vfs: VfsProvider, skill: Skill, path: string, offset: number, maxBytes: number) {
  const target = normalizeSourcePath(`${skill.folder}/${path}`);
  if (!target.ok) {
    throw new ToolExecutionError(`The path ${quote(path)} ${target.reason}; give a path inside the skill's folder.`, { reason: 'path_not_allowed', retryable: true });
  }
  if (!target.path.startsWith(`${skill.folder}/`)) {
    throw new ToolExecutionError(`The path ${quote(path)} is not a file of the skill ${skill.name}.`, { reason: 'path_not_allowed', retryable: true });
  }
  const file = await readFile(vfs, target.path);
  if (file === null) {
    throw new ToolExecutionError(`The skill ${skill.name} has no file ${quote(path)}; load the skill to see its files.`, { reason: 'not_found', retryable: true });
  }
  if (file.encoding === 'base64' || typeof file.content !== 'string') {
    throw new ToolExecutionError(`${quote(path)} is a binary file; it cannot be shown as text.`, { reason: 'binary_file', retryable: true });
  }
  const window = utf8Window(file.content, offset, maxBytes);
  const note = cutNote(window, path, skill.name, path);
  return toolOutput({
    text: note === undefined ? window.text : `${window.text}\n\n${note}`,
    data: { skill: skill.name, path: target.path, ...windowFacts(window), ...(file.truncated === true ? { sourceTruncated: true } : {}) },
  });
}

async function readFile(vfs: VfsProvider, path: string): Promise<VfsReadResult | null> {
  try {
    return (await vfs.read(path)) ?? null;
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    if (code === 'VFS_ERR_NOT_FOUND') return null;
    if (code === 'VFS_ERR_PATH_ESCAPE') {
      throw new ToolExecutionError(`${path} leads outside the project and cannot be read.`, { reason: 'path_not_allowed', retryable: true });
    }
    if (code === 'VFS_ERR_IS_A_DIRECTORY') {
      throw new ToolExecutionError(`${path} is a folder; give the path of a file in it.`, { reason: 'is_a_directory', retryable: true });
    }
    throw new ToolExecutionError(`${path} could not be read: ${describeError(error, 200)}`, { reason: 'read_failed', retryable: true });
  }
}

type Window = ReturnType<typeof utf8Window>;

function windowFacts(window: Window): Record<string, unknown> {
  const truncated = window.end < window.total;
  return { offset: window.start, bytes: window.end - window.start, size: window.total, truncated, ...(truncated ? { nextOffset: window.end } : {}) };
}

/** The note after a cut or partial text, telling the model how to go on; none for a whole text. */
function cutNote(window: Window, what: string, skill: string, path: string | undefined): string | undefined {
  if (window.start >= window.total && window.total > 0) return `[No bytes left: offset ${String(window.start)} is the end of ${what} (${String(window.total)} bytes).]`;
  if (window.end < window.total) {
    const args = JSON.stringify({ name: skill, ...(path === undefined ? {} : { path }), offset: window.end });
    return `[Cut: bytes ${String(window.start)}–${String(window.end)} of ${String(window.total)} of ${what}. Call ${SKILL_TOOL_NAME} with ${args} for the rest.]`;
  }
  if (window.start > 0) return `[Bytes ${String(window.start)}–${String(window.end)} of ${String(window.total)}: the end of ${what}.]`;
  return undefined;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
