import type { ManifestAgentGrants, ManifestGrant } from '../agent-project-types.js';
import { parseYaml, type YamlEntry } from './parse-yaml.js';
import { agentFilePathProblem, PROJECT_NAME_PATTERN, quoteName, SECRET_NAME_PATTERN, TOOL_NAME_PATTERN } from './project-names.js';
import { badValue, kindOf, readNameList, warnUnknownKeys, type FileScope } from './yaml-fields.js';

/** The manifest file names, in the order they are looked for. */
export const MANIFEST_FILES = ['agent-project.yaml', 'agent-project.json'] as const;

/** The top-level keys of the manifest. */
export const MANIFEST_KEYS = ['default_agent', 'agents'] as const;
/** The keys of one agent in the manifest. */
export const MANIFEST_AGENT_KEYS = ['file', 'tools', 'skills', 'secrets', 'subagents'] as const;

type GrantKind = keyof ManifestAgentGrants;
const GRANT_KINDS: readonly GrantKind[] = ['tools', 'skills', 'secrets', 'subagents'];
const GRANT_PATTERNS: Readonly<Record<GrantKind, { pattern: RegExp; what: string }>> = {
  tools: { pattern: TOOL_NAME_PATTERN, what: 'tool' },
  skills: { pattern: PROJECT_NAME_PATTERN, what: 'skill' },
  secrets: { pattern: SECRET_NAME_PATTERN, what: 'secret' },
  subagents: { pattern: PROJECT_NAME_PATTERN, what: 'agent' },
};

const NO_GRANT: ManifestGrant = /* @__PURE__ */ Object.freeze({ kind: 'list', names: /* @__PURE__ */ Object.freeze([]) });

/** One agent as the manifest declares it. */
export interface ManifestAgent {
  readonly name: string;
  /** The line of the agent's key. */
  readonly line: number;
  /** The agent file, relative to the project folder. */
  readonly file: string;
  readonly grants: ManifestAgentGrants;
  /** The line of each grant key that was written. */
  readonly grantLines: Readonly<Partial<Record<GrantKind, number>>>;
}

/** The manifest, checked for shape. */
export interface Manifest {
  readonly defaultAgent: { readonly name: string; readonly line: number } | undefined;
  /** The agents, in file order: those with a usable name and file (a bad grant reads as no grant). */
  readonly agents: ReadonlyMap<string, ManifestAgent>;
  /** False when the manifest had a problem: the project will not load, but its agent files are still checked. */
  readonly complete: boolean;
}

/**
 * Parses and checks the manifest's text, reporting every problem. Undefined when it cannot be
 * used at all (malformed, not a mapping, no agents); otherwise the usable part, so that the
 * agent files are checked too.
 */
export async function readManifest(scope: FileScope, text: string, options: { json: boolean; maxAgents: number }): Promise<Manifest | undefined> {
  const parsed = await parseYaml(text, { json: options.json });
  for (const warning of parsed.warnings) scope.log.warning(scope.file, `YAML: ${warning.message}`, { line: warning.line });
  if (parsed.errors.length > 0) {
    for (const error of parsed.errors) scope.log.problem(scope.file, `Malformed ${options.json ? 'JSON' : 'YAML'}: ${error.message}`, { line: error.line });
    return undefined;
  }
  const root = parsed.value;
  if (root === undefined || root.kind !== 'map') {
    scope.log.problem(scope.file, `The manifest must be a mapping with an agents key; got ${root === undefined ? 'an empty file' : kindOf(root)}.`, {
      line: root?.line ?? 1,
    });
    return undefined;
  }
  const before = scope.log.problems.length;
  warnUnknownKeys(scope, root, MANIFEST_KEYS, 'the manifest');
  const defaultAgent = readDefaultAgent(scope, root.entries.get('default_agent'));
  const agents = new Map<string, ManifestAgent>();
  const agentsEntry = root.entries.get('agents');
  if (agentsEntry === undefined || agentsEntry.value.kind !== 'map' || agentsEntry.value.entries.size === 0) {
    scope.log.problem(
      scope.file,
      `agents must be a mapping of agent names to their settings, with at least one agent; got ${agentsEntry === undefined ? 'no agents key' : kindOf(agentsEntry.value)}.`,
      { key: 'agents', line: agentsEntry?.line ?? root.line },
    );
    return undefined;
  }
  if (agentsEntry.value.entries.size > options.maxAgents) {
    badValue(scope, 'agents', agentsEntry, `declares ${agentsEntry.value.entries.size} agents, more than the limit of ${options.maxAgents}.`);
    return undefined;
  }
  for (const entry of agentsEntry.value.entries.values()) {
    const agent = readManifestAgent(scope, entry);
    if (agent !== undefined) agents.set(agent.name, agent);
  }
  return { defaultAgent, agents, complete: scope.log.problems.length === before };
}

function readDefaultAgent(scope: FileScope, entry: YamlEntry | undefined): Manifest['defaultAgent'] {
  if (entry === undefined) return undefined;
  const { value } = entry;
  if (value.kind !== 'scalar' || typeof value.value !== 'string' || !PROJECT_NAME_PATTERN.test(value.value)) {
    badValue(scope, 'default_agent', entry, `must be the name of an agent; got ${value.kind === 'scalar' && typeof value.value === 'string' ? quoteName(value.value) : kindOf(value)}.`);
    return undefined;
  }
  return { name: value.value, line: entry.line };
}

function readManifestAgent(scope: FileScope, entry: YamlEntry): ManifestAgent | undefined {
  const { key: name, value } = entry;
  const prefix = `agents.${name}`;
  if (!PROJECT_NAME_PATTERN.test(name)) {
    scope.log.problem(scope.file, `The agent name ${quoteName(name)} is not valid: use 1 to 64 letters, digits, _, - or ., not starting with . or -.`, {
      key: prefix,
      line: entry.line,
    });
    return undefined;
  }
  if (value.kind === 'scalar' && value.value === null) {
    return { name, line: entry.line, file: `agents/${name}.md`, grants: freezeGrants({}), grantLines: {} };
  }
  if (value.kind !== 'map') {
    badValue(scope, prefix, entry, `must be a mapping of file and grants (or empty); got ${kindOf(value)}.`);
    return undefined;
  }
  warnUnknownKeys(scope, value, MANIFEST_AGENT_KEYS, `agent ${quoteName(name)}`, `${prefix}.`);
  let file = `agents/${name}.md`;
  const fileEntry = value.entries.get('file');
  if (fileEntry !== undefined) {
    const given = fileEntry.value;
    const problem = given.kind === 'scalar' && typeof given.value === 'string' ? agentFilePathProblem(given.value) : `must be text; got ${kindOf(given)}`;
    if (problem !== undefined) {
      badValue(scope, `${prefix}.file`, fileEntry, `${problem}.`);
      return undefined;
    }
    file = (given as { value: string }).value;
  }
  const grants: Partial<Record<GrantKind, ManifestGrant>> = {};
  const grantLines: Partial<Record<GrantKind, number>> = {};
  for (const kind of GRANT_KINDS) {
    const grantEntry = value.entries.get(kind);
    if (grantEntry === undefined) continue;
    grantLines[kind] = grantEntry.line;
    const grant = readGrant(scope, grantEntry, `${prefix}.${kind}`, kind);
    if (grant !== undefined) grants[kind] = grant;
  }
  return { name, line: entry.line, file, grants: freezeGrants(grants), grantLines: Object.freeze(grantLines) };
}

function readGrant(scope: FileScope, entry: YamlEntry, key: string, kind: GrantKind): ManifestGrant | undefined {
  const { value } = entry;
  if (value.kind === 'scalar' && value.value === 'all') return Object.freeze({ kind: 'all' });
  if (value.kind === 'scalar' && (value.value === 'none' || value.value === null)) return NO_GRANT;
  if (value.kind !== 'list') {
    badValue(scope, key, entry, `must be all, none or a list of ${GRANT_PATTERNS[kind].what} names; got ${value.kind === 'scalar' && typeof value.value === 'string' ? quoteName(value.value) : kindOf(value)}.`);
    return undefined;
  }
  const names = readNameList(scope, entry, key, GRANT_PATTERNS[kind].pattern, GRANT_PATTERNS[kind].what);
  return names === undefined ? undefined : Object.freeze({ kind: 'list', names: Object.freeze(names) });
}

function freezeGrants(grants: Partial<Record<GrantKind, ManifestGrant>>): ManifestAgentGrants {
  return Object.freeze({
    tools: grants.tools ?? NO_GRANT,
    skills: grants.skills ?? NO_GRANT,
    secrets: grants.secrets ?? NO_GRANT,
    subagents: grants.subagents ?? NO_GRANT,
  });
}
