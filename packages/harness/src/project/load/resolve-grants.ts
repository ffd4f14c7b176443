import type { AgentMode, AgentToolsSetting, EffectiveAgentGrants, ManifestAgentGrants, ManifestGrant, ProjectAccess } from '../agent-project-types.js';

/** The tools a turn may use: the manifest grant narrowed by the agent file's `tools`. */
export function effectiveTools(grant: ManifestGrant, setting: AgentToolsSetting): ProjectAccess {
  if (setting.kind === 'none') return only([]);
  if (grant.kind === 'all') {
    if (setting.kind === 'all') return Object.freeze({ kind: 'all', except: Object.freeze([]) });
    if (setting.kind === 'exclude') return Object.freeze({ kind: 'all', except: setting.names });
    return only(setting.names);
  }
  if (setting.kind === 'all') return only(grant.names);
  if (setting.kind === 'exclude') return only(grant.names.filter((name) => !setting.names.includes(name)));
  return only(grant.names.filter((name) => setting.names.includes(name)));
}

/** The agents a given agent may start: subagent-capable agents other than itself, as granted. */
export function effectiveSubagents(self: string, grant: ManifestGrant, modes: ReadonlyMap<string, AgentMode>): readonly string[] {
  const candidates = [...modes].filter(([name, mode]) => name !== self && mode !== 'primary').map(([name]) => name);
  return Object.freeze(grant.kind === 'all' ? candidates : grant.names.filter((name) => candidates.includes(name)));
}

/** Everything one agent's turn may use (both bindings applied). */
export function effectiveGrants(
  self: string,
  grants: ManifestAgentGrants,
  tools: AgentToolsSetting,
  skillNames: readonly string[],
  modes: ReadonlyMap<string, AgentMode>,
): EffectiveAgentGrants {
  const skills = grants.skills.kind === 'all' ? skillNames : skillNames.filter((name) => (grants.skills as { names: readonly string[] }).names.includes(name));
  return Object.freeze({
    tools: effectiveTools(grants.tools, tools),
    skills: Object.freeze([...skills]),
    secrets: grants.secrets.kind === 'all' ? Object.freeze({ kind: 'all', except: Object.freeze([]) }) : only(grants.secrets.names),
    subagents: effectiveSubagents(self, grants.subagents, modes),
  });
}

/** Whether `access` lets a turn use `name` (a tool or secret name). */
export function projectAccessAllows(access: ProjectAccess, name: string): boolean {
  return access.kind === 'all' ? !access.except.includes(name) : access.names.includes(name);
}

function only(names: readonly string[]): ProjectAccess {
  return Object.freeze({ kind: 'only', names: Object.freeze([...names]) });
}
