import type {
  AgentMode,
  AgentProject,
  AgentProjectIssue,
  AgentToolsSetting,
  ManifestGrant,
  ProjectAccess,
  ProjectAgent,
  ProjectInstructionsInfo,
} from '../agent-project-types.js';
import type { PermissionAction } from '../permission-types.js';

/** What a grant resolves to: the names, or every name the product supplies except some. */
export type ResolvedGrantDescription = string[] | { all: true; except: string[] };

/** One grant of an agent: as the manifest wrote it, and what it resolves to. */
export interface GrantDescription {
  /** The manifest grant: `'all'` or the listed names (`[]` when the key is missing: deny by default). */
  granted: 'all' | string[];
  /**
   * What a turn may use. Skills and subagents are always names of the project. Tools and secrets
   * are names when the grant is a list (or when `describeAgentProject` was given the product's
   * names), otherwise `{ all: true, except }`.
   */
  resolved: ResolvedGrantDescription;
}

/** The agent file's `tools` key as JSON. */
export type AgentToolsDescription = 'all' | 'none' | { only: string[] } | { exclude: string[] };

/** One permission rule of an agent: a tool's action, or its command-pattern rules in order. */
export interface PermissionDescription {
  tool: string;
  action: PermissionAction | null;
  patterns: Array<{ pattern: string; action: PermissionAction }>;
}

/** One agent, for a settings page. */
export interface AgentDescription {
  name: string;
  /** Project-relative path of the agent file. */
  file: string;
  description: string | null;
  model: string | null;
  mode: AgentMode;
  temperature: number | null;
  topP: number | null;
  steps: number | null;
  /** Whether this is the project's default agent. */
  isDefault: boolean;
  /** Characters of the agent's prompt (the prompt itself is not repeated here). */
  promptLength: number;
  /** The agent file's `tools` key (it narrows the manifest's tools grant). */
  toolsSetting: AgentToolsDescription;
  grants: { tools: GrantDescription; skills: GrantDescription; secrets: GrantDescription; subagents: GrantDescription };
  permission: PermissionDescription[];
}

/** One skill, for a settings page. */
export interface SkillDescription {
  name: string;
  description: string;
  /** Project-relative path of the skill's folder. */
  directory: string;
  /** The agents granted this skill. */
  grantedTo: string[];
}

/** One prompt template (`commands/<name>.md`), for a product's menu. */
export interface CommandDescription {
  name: string;
  /** Its frontmatter `description`, or `null`. */
  description: string | null;
  /** The agent that runs it (its `agent`, else the default agent). */
  agent: string;
  /** Project-relative path of the command file. */
  file: string;
}

/** A whole project as plain JSON: no maps, no prompt texts, never a secret value (a project holds none). */
export interface AgentProjectDescription {
  defaultAgent: string;
  /** Project-relative path of the manifest. */
  manifest: string;
  agents: AgentDescription[];
  skills: SkillDescription[];
  /** The prompt templates, in name order (their text is not included). */
  commands: CommandDescription[];
  /** What `AGENTS.md` / `CLAUDE.md` was loaded (`path` relative to the project folder), or `null`. */
  instructions: ProjectInstructionsInfo | null;
  warnings: AgentProjectIssue[];
}

/** The names the product supplies, to resolve `all` grants of tools and secrets into names. */
export interface DescribeAgentProjectOptions {
  /** Every tool name the product offers. */
  tools?: readonly string[] | undefined;
  /** Every secret name the product holds (names only). */
  secrets?: readonly string[] | undefined;
}

/**
 * Describes a loaded project for a product's settings page: each agent with its model, mode, its
 * grants as written and what each resolves to (skills, tools, subagents, secret names), its
 * permission rules; each skill and who may load it; each command and the agent that runs it; the
 * instructions' metadata and the warnings.
 * The result is plain JSON (`JSON.stringify` keeps all of it) and a fresh copy each call.
 */
export function describeAgentProject(project: AgentProject, options: DescribeAgentProjectOptions = {}): AgentProjectDescription {
  const relative = (path: string) => (project.root === '/' ? path.slice(1) : path.slice(project.root.length + 1));
  const agents = [...project.agents.values()];
  return {
    defaultAgent: project.defaultAgent,
    manifest: relative(project.manifestPath),
    agents: agents.map((agent) => describeAgent(agent, project.defaultAgent, relative(agent.path), options)),
    skills: [...project.skills.values()].map((skill) => ({
      name: skill.name,
      description: skill.description,
      directory: relative(skill.directory),
      grantedTo: agents.filter((agent) => agent.effective.skills.includes(skill.name)).map((agent) => agent.name),
    })),
    commands: [...(project.commands?.values() ?? [])].map((command) => ({
      name: command.name,
      description: command.description ?? null,
      agent: command.agent ?? project.defaultAgent,
      file: relative(command.path),
    })),
    instructions: project.instructions === null ? null : { ...project.instructions.info, path: relative(project.instructions.info.path) },
    warnings: project.warnings.map((warning) => ({ ...warning })),
  };
}

function describeAgent(agent: ProjectAgent, defaultAgent: string, file: string, options: DescribeAgentProjectOptions): AgentDescription {
  const { grants, effective } = agent;
  return {
    name: agent.name,
    file,
    description: agent.description ?? null,
    model: agent.model ?? null,
    mode: agent.mode,
    temperature: agent.temperature ?? null,
    topP: agent.topP ?? null,
    steps: agent.steps ?? null,
    isDefault: agent.name === defaultAgent,
    promptLength: agent.prompt.length,
    toolsSetting: describeToolsSetting(agent.tools),
    grants: {
      tools: { granted: granted(grants.tools), resolved: resolveAccess(effective.tools, options.tools) },
      skills: { granted: granted(grants.skills), resolved: [...effective.skills] },
      secrets: { granted: granted(grants.secrets), resolved: resolveAccess(effective.secrets, options.secrets) },
      subagents: { granted: granted(grants.subagents), resolved: [...effective.subagents] },
    },
    permission: [...agent.permission.tools].map(([tool, rule]) =>
      typeof rule === 'string'
        ? { tool, action: rule, patterns: [] }
        : { tool, action: null, patterns: rule.map(({ pattern, action }) => ({ pattern, action })) },
    ),
  };
}

function granted(grant: ManifestGrant): 'all' | string[] {
  return grant.kind === 'all' ? 'all' : [...grant.names];
}

function resolveAccess(access: ProjectAccess, known: readonly unknown[] | undefined): ResolvedGrantDescription {
  if (access.kind === 'only') return [...access.names];
  if (!Array.isArray(known)) return { all: true, except: [...access.except] };
  const names = known.filter((name): name is string => typeof name === 'string');
  return [...new Set(names)].filter((name) => !access.except.includes(name));
}

function describeToolsSetting(setting: AgentToolsSetting): AgentToolsDescription {
  switch (setting.kind) {
    case 'all':
    case 'none':
      return setting.kind;
    case 'list':
      return { only: [...setting.names] };
    case 'exclude':
      return { exclude: [...setting.names] };
  }
}
