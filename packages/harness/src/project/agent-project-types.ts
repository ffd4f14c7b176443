import type { PermissionRuleSet } from './permission-types.js';

/** How an agent may run: as the turn's own agent (`primary`), only as a subagent, or both (`all`). */
export type AgentMode = 'primary' | 'subagent' | 'all';

/**
 * The agent file's `tools` key: every tool the manifest grants (`all`, the default), none, only
 * the listed names, or every granted tool except the listed names.
 */
export type AgentToolsSetting =
  | { readonly kind: 'all' }
  | { readonly kind: 'none' }
  | { readonly kind: 'list'; readonly names: readonly string[] }
  | { readonly kind: 'exclude'; readonly names: readonly string[] };

/**
 * One grant of the manifest (`tools`, `skills`, `secrets`, `subagents`): everything of that kind
 * (`all`), or only the listed names. A missing key, `none` and `[]` are all `{ kind: 'list', names: [] }`:
 * deny by default.
 */
export type ManifestGrant = { readonly kind: 'all' } | { readonly kind: 'list'; readonly names: readonly string[] };

/** The four grants of one agent in the manifest, as written. */
export interface ManifestAgentGrants {
  readonly tools: ManifestGrant;
  readonly skills: ManifestGrant;
  readonly secrets: ManifestGrant;
  readonly subagents: ManifestGrant;
}

/**
 * Names a turn may use when the full set is only known at run time (the product's tools and
 * secrets): every name except `except`, or only `names`.
 */
export type ProjectAccess = { readonly kind: 'all'; readonly except: readonly string[] } | { readonly kind: 'only'; readonly names: readonly string[] };

/**
 * What one agent's turn may use: only what both the agent file and the manifest allow. Skills and
 * subagents are resolved against the project; tools and secrets against what the product supplies
 * (use `projectAccessAllows`).
 */
export interface EffectiveAgentGrants {
  /** Tool names: the manifest `tools` grant narrowed by the agent file's `tools` key. */
  readonly tools: ProjectAccess;
  /** Skills of the project the agent may load, in name order. */
  readonly skills: readonly string[];
  /** Secret names the agent may read (`except` is always empty). */
  readonly secrets: ProjectAccess;
  /** Agents of the project (mode `subagent` or `all`, never itself) the agent may start, in manifest order. */
  readonly subagents: readonly string[];
}

/** One agent of a loaded project: its manifest entry and its agent file. */
export interface ProjectAgent {
  /** The agent's name: its key under the manifest's `agents`. */
  readonly name: string;
  /** VFS path of the agent file (e.g. `/agents/reviewer.md`). */
  readonly path: string;
  /** Frontmatter `description`: what the agent does (a subagent's is shown to the agent that may start it). */
  readonly description: string | undefined;
  /** Frontmatter `model`: a provider profile id or alias; `undefined` leaves the choice to the product. */
  readonly model: string | undefined;
  /** Frontmatter `mode`. @default 'all' */
  readonly mode: AgentMode;
  /** Frontmatter `temperature` (0 to 2). */
  readonly temperature: number | undefined;
  /** Frontmatter `top_p` (0 to 1). */
  readonly topP: number | undefined;
  /** Frontmatter `steps`: the turn's iteration cap (a whole number from 1 to 1000). */
  readonly steps: number | undefined;
  /** The body of the agent file, trimmed: the agent's system prompt. */
  readonly prompt: string;
  /** Frontmatter `permission`, parsed; no key gives no rules. */
  readonly permission: PermissionRuleSet;
  /** Frontmatter `tools`. @default { kind: 'all' } */
  readonly tools: AgentToolsSetting;
  /** The agent's grants in the manifest, as written. */
  readonly grants: ManifestAgentGrants;
  /** What a turn of this agent may use (both bindings applied). */
  readonly effective: EffectiveAgentGrants;
}

/** One skill of a loaded project (`skills/<name>/SKILL.md`). Its other files are not read by the loader. */
export interface ProjectSkill {
  /** The folder's name (the frontmatter `name`, when given, must equal it). */
  readonly name: string;
  /** Frontmatter `description`: what the agent sees before it loads the skill. */
  readonly description: string;
  /** The body of `SKILL.md`, trimmed: what loading the skill returns. */
  readonly instructions: string;
  /** VFS path of the skill's folder (e.g. `/skills/release-notes`): its other files are read from there. */
  readonly directory: string;
  /** VFS path of `SKILL.md`. */
  readonly path: string;
}

/** A prompt template of the project (`commands/<name>.md`): expanded into a turn's message by `expandAgentCommand`. */
export interface ProjectCommand {
  /** The file's name without `.md`. */
  readonly name: string;
  /** Frontmatter `description`: what the command does, for a product's menu. */
  readonly description: string | undefined;
  /** Frontmatter `agent`: the agent that runs it; `undefined` means the project's default agent. */
  readonly agent: string | undefined;
  /** The body, trimmed: the message text, `$ARGUMENTS` standing for what the user typed after the command. */
  readonly template: string;
  /** VFS path of the command file. */
  readonly path: string;
}

/** What project instructions were loaded, for a turn's metadata. */
export interface ProjectInstructionsInfo {
  /** Which file: `AGENTS.md`, or `CLAUDE.md` when there is no `AGENTS.md`. */
  readonly source: 'AGENTS.md' | 'CLAUDE.md';
  /** Its VFS path. */
  readonly path: string;
  /** Its size in bytes (UTF-8, as read). */
  readonly bytes: number;
  /** The first 12 hex digits of the SHA-256 of those bytes. */
  readonly sha: string;
}

/** The project instructions: the text placed after the agent's prompt, and where it came from. */
export interface ProjectInstructions {
  readonly text: string;
  readonly info: ProjectInstructionsInfo;
}

/** A problem (in `AgentProjectError.problems`) or a warning (in `AgentProject.warnings`). */
export interface AgentProjectIssue {
  /** The file, relative to the project folder (e.g. `agents/reviewer.md`). */
  readonly file: string;
  /** The key it is about (e.g. `temperature`, `agents.reviewer.skills`), when there is one. */
  readonly key?: string | undefined;
  /** The 1-based line in that file, when known. */
  readonly line?: number | undefined;
  readonly message: string;
}

/** A loaded, checked project. Frozen: nothing in it can change, its maps included. */
export interface AgentProject {
  /** VFS path of the project folder (`/` unless `LoadAgentProjectOptions.root` says otherwise). */
  readonly root: string;
  /** VFS path of the manifest that was read. */
  readonly manifestPath: string;
  /** The agent a turn runs when none is named: `default_agent`, or the first agent of mode `primary` or `all`. */
  readonly defaultAgent: string;
  /** The agents by name, in manifest order. */
  readonly agents: ReadonlyMap<string, ProjectAgent>;
  /** Every skill of `skills/` by name, in name order (granted or not). */
  readonly skills: ReadonlyMap<string, ProjectSkill>;
  /** Every prompt template of `commands/` by name, in name order. */
  readonly commands: ReadonlyMap<string, ProjectCommand>;
  /** `AGENTS.md` (or `CLAUDE.md`), or `null` when none was loaded. */
  readonly instructions: ProjectInstructions | null;
  /** What the loader noticed but accepted: unknown keys, ignored files, instructions left out. */
  readonly warnings: readonly AgentProjectIssue[];
}
