import type { VfsProvider } from '@agent-assistant/vfs';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { AgentProjectError } from '../agent-project-error.js';
import type { AgentMode, AgentProject, ProjectAgent, ProjectSkill } from '../agent-project-types.js';
import { frozenMap } from '../internal/frozen-map.js';
import { resolveLoadOptions, type LoadAgentProjectOptions, type ResolvedLoadOptions } from './load-agent-project-options.js';
import { ProjectLog } from './project-log.js';
import { projectPath, quoteName } from './project-names.js';
import { readAgentFile, type AgentFileSettings } from './read-agent-file.js';
import { readCommands, type CommandFile } from './read-commands.js';
import { readInstructions } from './read-instructions.js';
import { MANIFEST_FILES, readManifest, type Manifest } from './read-manifest.js';
import { listProjectDir, readProjectFile } from './read-project-file.js';
import { readSkills } from './read-skills.js';
import { effectiveGrants } from './resolve-grants.js';

/**
 * Loads an agent project from a VFS folder: the manifest (`agent-project.yaml` or `.json`), each
 * agent's file, every `skills/<name>/SKILL.md`, every `commands/<name>.md`, and `AGENTS.md` (or `CLAUDE.md` when there is no
 * `AGENTS.md`). Every file is read through the VFS under a byte limit; paths that leave the
 * project are refused by the VFS. Runs in Node and in Workers (the YAML parser loads lazily on
 * the first call).
 *
 * @returns the checked project, frozen, with its warnings (unknown keys, ignored files, left-out instructions).
 * @throws AgentProjectError listing every problem found, each with file, key and line.
 * @throws HarnessConfigError when `vfs` is not a VFS or an option is invalid.
 * @example
 * ```ts
 * import { createNodeFsVfs } from '@agent-assistant/vfs/node';
 * const project = await loadAgentProject(createNodeFsVfs({ root: './my-project' }));
 * const reviewer = project.agents.get('reviewer');
 * ```
 */
export async function loadAgentProject(vfs: VfsProvider, options?: LoadAgentProjectOptions): Promise<AgentProject> {
  const resolved = resolveLoadOptions(options);
  checkVfs(vfs);
  const log = new ProjectLog();
  const manifest = await loadManifest(vfs, resolved, log);
  const skills = await readSkills(vfs, resolved.root, log, resolved.limits);
  const agentFiles = manifest === undefined ? new Map<string, AgentFileSettings>() : await loadAgentFiles(vfs, resolved, manifest.value, log);
  if (manifest !== undefined) {
    await warnUnlistedAgentFiles(vfs, resolved, manifest.value, log);
    checkReferences(manifest, agentFiles, skills, log);
  }
  const commands = await readCommands(vfs, resolved.root, log, resolved.limits);
  if (manifest !== undefined) checkCommandAgents(commands, manifest.value, agentFiles, log);
  const instructions = await readInstructions(vfs, resolved.root, log, resolved.limits.maxInstructionsBytes);
  if (manifest === undefined || log.problems.length > 0) throw new AgentProjectError(log.problems, { warnings: log.warnings });

  const modes = new Map<string, AgentMode>([...agentFiles].map(([name, file]) => [name, file.mode]));
  const skillNames = [...skills.keys()];
  const agents: Array<[string, ProjectAgent]> = [];
  for (const entry of manifest.value.agents.values()) {
    const file = agentFiles.get(entry.name)!;
    agents.push([
      entry.name,
      Object.freeze({
        name: entry.name,
        path: projectPath(resolved.root, entry.file),
        description: file.description,
        model: file.model,
        mode: file.mode,
        temperature: file.temperature,
        topP: file.topP,
        steps: file.steps,
        prompt: file.prompt,
        permission: file.permission,
        tools: file.tools,
        grants: entry.grants,
        effective: effectiveGrants(entry.name, entry.grants, file.tools, skillNames, modes),
      }),
    ]);
  }
  return Object.freeze({
    root: resolved.root,
    manifestPath: projectPath(resolved.root, manifest.file),
    defaultAgent: manifest.value.defaultAgent?.name ?? agents.find(([, agent]) => agent.mode !== 'subagent')![0],
    agents: frozenMap(agents),
    skills: frozenMap(skills),
    commands: frozenMap([...commands].map(([name, { agentLine: _line, ...command }]) => [name, Object.freeze(command)] as const)),
    instructions,
    warnings: Object.freeze([...log.warnings]),
  });
}

/** A command's `agent` must be an agent of the manifest that runs turns of its own (mode primary or all). */
function checkCommandAgents(commands: ReadonlyMap<string, CommandFile>, manifest: Manifest, agentFiles: ReadonlyMap<string, AgentFileSettings>, log: ProjectLog): void {
  for (const command of commands.values()) {
    if (command.agent === undefined) continue;
    const at = { key: 'agent', line: command.agentLine };
    const file = `commands/${command.name}.md`;
    if (!manifest.agents.has(command.agent)) log.problem(file, `agent names ${quoteName(command.agent)}, which is not an agent of the manifest.`, at);
    else if (agentFiles.get(command.agent)?.mode === 'subagent') log.problem(file, `agent names ${quoteName(command.agent)}, whose mode is subagent; it cannot run a turn of its own.`, at);
  }
}

function checkVfs(vfs: VfsProvider): void {
  let usable: boolean;
  try {
    usable = typeof vfs === 'object' && vfs !== null && typeof vfs.read === 'function' && typeof vfs.list === 'function';
  } catch {
    usable = false;
  }
  if (!usable) throw new HarnessConfigError('vfs must be a VfsProvider with read and list.', { field: 'vfs' });
}

async function loadManifest(vfs: VfsProvider, options: ResolvedLoadOptions, log: ProjectLog): Promise<{ file: string; value: Manifest } | undefined> {
  const reads = await Promise.all(MANIFEST_FILES.map((file) => readProjectFile(vfs, projectPath(options.root, file), options.limits.maxManifestBytes)));
  const present = MANIFEST_FILES.filter((_, index) => reads[index]!.status !== 'missing');
  if (present.length === 0) {
    log.problem(MANIFEST_FILES[0], `No agent-project.yaml (or agent-project.json) in the project folder ${options.root}.`);
    return undefined;
  }
  if (present.length > 1) {
    log.problem(MANIFEST_FILES[1], 'Both agent-project.yaml and agent-project.json exist; keep one manifest.');
    return undefined;
  }
  const file = present[0]!;
  const read = reads[MANIFEST_FILES.indexOf(file)]!;
  if (read.status !== 'ok') {
    if (read.status === 'refused') log.problem(file, `The manifest ${read.message}.`);
    return undefined;
  }
  const value = await readManifest({ log, file }, read.text, { json: file.endsWith('.json'), maxAgents: options.limits.maxAgents });
  return value === undefined ? undefined : { file, value };
}

async function loadAgentFiles(vfs: VfsProvider, options: ResolvedLoadOptions, manifest: Manifest, log: ProjectLog): Promise<Map<string, AgentFileSettings>> {
  const files = new Map<string, AgentFileSettings>();
  for (const agent of manifest.agents.values()) {
    const read = await readProjectFile(vfs, projectPath(options.root, agent.file), options.limits.maxAgentFileBytes);
    if (read.status === 'missing') {
      log.problem(agent.file, `The file of agent ${quoteName(agent.name)} does not exist.`);
      continue;
    }
    if (read.status === 'refused') {
      log.problem(agent.file, `The file of agent ${quoteName(agent.name)} ${read.message}.`);
      continue;
    }
    const settings = await readAgentFile({ log, file: agent.file }, read.text);
    if (settings !== undefined) files.set(agent.name, settings);
  }
  return files;
}

/** Agent files in `agents/` that no manifest entry names are not agents: say so. */
async function warnUnlistedAgentFiles(vfs: VfsProvider, options: ResolvedLoadOptions, manifest: Manifest, log: ProjectLog): Promise<void> {
  const listing = await listProjectDir(vfs, projectPath(options.root, 'agents'), 1000);
  if (listing.status !== 'ok' || !Array.isArray(listing.entries)) return;
  const listed = new Set([...manifest.agents.values()].map((agent) => projectPath(options.root, agent.file)));
  for (const entry of listing.entries) {
    const path = entry?.path;
    if (entry?.type !== 'file' || typeof path !== 'string' || !path.endsWith('.md') || listed.has(path)) continue;
    const relative = path.slice(options.root === '/' ? 1 : options.root.length + 1);
    log.warning(relative, 'No agent in the manifest uses this file; it is not loaded.');
  }
}

/** Grants and `default_agent` must name what exists: skills, and agents that can run in that role. */
function checkReferences(
  manifest: { file: string; value: Manifest },
  agentFiles: ReadonlyMap<string, AgentFileSettings>,
  skills: ReadonlyMap<string, ProjectSkill>,
  log: ProjectLog,
): void {
  const { file, value } = manifest;
  for (const agent of value.agents.values()) {
    const { skills: skillGrant, subagents } = agent.grants;
    if (skillGrant.kind === 'list') {
      for (const name of skillGrant.names) {
        if (!skills.has(name)) {
          log.problem(file, `agents.${agent.name}.skills names ${quoteName(name)}, but there is no skill skills/${name}/SKILL.md.`, {
            key: `agents.${agent.name}.skills`,
            line: agent.grantLines.skills,
          });
        }
      }
    }
    if (subagents.kind === 'list') {
      for (const name of subagents.names) {
        const at = { key: `agents.${agent.name}.subagents`, line: agent.grantLines.subagents };
        if (name === agent.name) log.problem(file, `agents.${agent.name}.subagents names the agent itself; an agent cannot be its own subagent.`, at);
        else if (!value.agents.has(name)) log.problem(file, `agents.${agent.name}.subagents names ${quoteName(name)}, which is not an agent of the manifest.`, at);
        else if (agentFiles.get(name)?.mode === 'primary') {
          log.problem(file, `agents.${agent.name}.subagents names ${quoteName(name)}, whose mode is primary; only agents of mode subagent or all can be subagents.`, at);
        }
      }
    }
  }
  const chosen = value.defaultAgent;
  if (chosen !== undefined) {
    const at = { key: 'default_agent', line: chosen.line };
    if (!value.agents.has(chosen.name)) log.problem(file, `default_agent names ${quoteName(chosen.name)}, which is not an agent of the manifest.`, at);
    else if (agentFiles.get(chosen.name)?.mode === 'subagent') log.problem(file, `default_agent names ${quoteName(chosen.name)}, whose mode is subagent; it cannot run a turn of its own.`, at);
  } else if (value.complete && agentFiles.size === value.agents.size && [...agentFiles.values()].every((agent) => agent.mode === 'subagent')) {
    log.problem(file, 'Every agent has mode subagent: no agent can run a turn of its own. Give one mode primary or all.', { key: 'agents' });
  }
}
