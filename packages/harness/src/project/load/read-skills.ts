import type { VfsProvider } from '@agent-assistant/vfs';
import type { ProjectSkill } from '../agent-project-types.js';
import type { ProjectLog } from './project-log.js';
import { PROJECT_NAME_PATTERN, projectPath, quoteName } from './project-names.js';
import { readMarkdownFile } from './read-markdown-file.js';
import { listProjectDir, readProjectFile } from './read-project-file.js';
import { badValue, kindOf, readText, warnUnknownKeys, type FileScope } from './yaml-fields.js';

/** The frontmatter keys of `SKILL.md` (the Agent Skills format); only `name` and `description` are used. */
export const SKILL_FILE_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'] as const;
/** Longest skill description, in characters (the Agent Skills limit). */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;

/**
 * Reads every `skills/<name>/SKILL.md` under the project root, in name order. Problems and
 * warnings go to `log`; a skill with a problem is left out. Other files of a skill folder are not read.
 */
export async function readSkills(
  vfs: VfsProvider,
  root: string,
  log: ProjectLog,
  limits: { maxSkills: number; maxSkillFileBytes: number },
): Promise<Map<string, ProjectSkill>> {
  const skills = new Map<string, ProjectSkill>();
  const listing = await listProjectDir(vfs, projectPath(root, 'skills'), limits.maxSkills + 1);
  if (listing.status === 'missing') return skills;
  if (listing.status === 'refused') {
    log.problem('skills', `The skills folder ${listing.message}.`);
    return skills;
  }
  const entries = Array.isArray(listing.entries) ? listing.entries : [];
  if (entries.length > limits.maxSkills) {
    log.problem('skills', `The skills folder holds more than the limit of ${limits.maxSkills} entries.`);
    return skills;
  }
  for (const entry of entries) {
    const name = typeof entry?.path === 'string' ? entry.path.slice(entry.path.lastIndexOf('/') + 1) : '';
    const relative = `skills/${name}`;
    if (entry?.type !== 'dir') {
      log.warning(relative, 'Not a skill folder (skills/<name>/SKILL.md); ignored.');
      continue;
    }
    if (!PROJECT_NAME_PATTERN.test(name)) {
      log.problem(relative, `The skill name ${quoteName(name)} is not valid: use 1 to 64 letters, digits, _, - or ., not starting with . or -.`);
      continue;
    }
    const skill = await readSkill(vfs, root, name, log, limits.maxSkillFileBytes);
    if (skill !== undefined) skills.set(name, skill);
  }
  return skills;
}

async function readSkill(vfs: VfsProvider, root: string, name: string, log: ProjectLog, maxBytes: number): Promise<ProjectSkill | undefined> {
  const file = `skills/${name}/SKILL.md`;
  const path = projectPath(root, file);
  const read = await readProjectFile(vfs, path, maxBytes);
  if (read.status === 'missing') {
    log.warning(`skills/${name}`, 'The skill folder has no SKILL.md; it is not a skill.');
    return undefined;
  }
  if (read.status === 'refused') {
    log.problem(file, `SKILL.md ${read.message}.`);
    return undefined;
  }
  const scope: FileScope = { log, file };
  const markdown = await readMarkdownFile(scope, read.text);
  if (markdown === undefined) return undefined;
  const before = log.problems.length;
  if (!markdown.hasFrontmatter) {
    log.problem(file, 'SKILL.md needs a frontmatter with a description (--- / description: … / ---).', { line: 1 });
    return undefined;
  }
  const { entries } = markdown.frontmatter;
  warnUnknownKeys(scope, markdown.frontmatter, SKILL_FILE_KEYS, 'the skill frontmatter');
  const nameEntry = entries.get('name');
  if (nameEntry !== undefined && !(nameEntry.value.kind === 'scalar' && nameEntry.value.value === name)) {
    const given = nameEntry.value.kind === 'scalar' && typeof nameEntry.value.value === 'string' ? quoteName(nameEntry.value.value) : kindOf(nameEntry.value);
    badValue(scope, 'name', nameEntry, `must be the skill folder's name ${quoteName(name)}; got ${given}.`);
  }
  const descriptionEntry = entries.get('description');
  const description = readText(scope, descriptionEntry, 'description', MAX_SKILL_DESCRIPTION_LENGTH);
  if (descriptionEntry === undefined) log.problem(file, 'description is missing: the agent chooses a skill by it.', { key: 'description', line: markdown.frontmatter.line });
  if (markdown.body === '') log.warning(file, 'SKILL.md has no body: loading the skill returns no instructions.');
  if (log.problems.length > before || description === undefined) return undefined;
  return Object.freeze({ name, description, instructions: markdown.body, directory: projectPath(root, `skills/${name}`), path });
}
