export type * from './agent-project-types.js';
export type * from './permission-types.js';
export { AgentProjectError, formatAgentProjectIssue } from './agent-project-error.js';
export { loadAgentProject } from './load/load-agent-project.js';
export {
  DEFAULT_AGENT_PROJECT_LIMITS,
  type AgentProjectLimits,
  type LoadAgentProjectOptions,
} from './load/load-agent-project-options.js';
export { projectAccessAllows } from './load/resolve-grants.js';
export {
  describeAgentProject,
  type AgentDescription,
  type AgentProjectDescription,
  type AgentToolsDescription,
  type CommandDescription,
  type DescribeAgentProjectOptions,
  type GrantDescription,
  type PermissionDescription,
  type ResolvedGrantDescription,
  type SkillDescription,
} from './describe/describe-agent-project.js';
export * from './permissions/index.js';
export * from './skills/index.js';
export * from './harness/index.js';
export { expandAgentCommand, COMMAND_ARGUMENTS_PLACEHOLDER, type ExpandedAgentCommand } from './commands/expand-agent-command.js';
