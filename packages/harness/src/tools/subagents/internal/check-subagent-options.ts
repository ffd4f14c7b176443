import { requireBackendRunner } from '../../../core/backend-runner.js';
import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import { SUBAGENT_TOOL_NAME, type SubagentDefinition, type SubagentToolOptions } from '../subagent-definition.js';

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** The registry's options once checked: subagents by name, and the nesting depth. */
export interface CheckedOptions extends SubagentToolOptions {
  byName: Map<string, SubagentDefinition>;
  maxDepth: number;
}

/** Checks the options of `createSubagentToolRegistry`. @throws HarnessConfigError for invalid ones. */
export function checkOptions(options: SubagentToolOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('createSubagentToolRegistry expects options.', { field: 'options' });
  const { subagents, model, backend, tools } = options;
  if (!Array.isArray(subagents) || subagents.length === 0) {
    throw new HarnessConfigError('subagents must be a non-empty array.', { field: 'subagents' });
  }
  if (model !== undefined && backend !== undefined) {
    throw new HarnessConfigError('Give model or backend, not both.', { field: 'backend' });
  }
  if (backend !== undefined) requireBackendRunner(backend, 'backend');
  const maxDepth = options.maxDepth ?? 2;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 5) {
    throw new HarnessConfigError('maxDepth must be an integer from 1 to 5.', { field: 'maxDepth' });
  }
  if (tools !== undefined && (typeof tools.listAvailable !== 'function' || typeof tools.execute !== 'function')) {
    throw new HarnessConfigError('tools must be a tool registry.', { field: 'tools' });
  }
  const declared = (tools as { toolNames?: unknown } | undefined)?.toolNames;
  const byName = new Map<string, SubagentDefinition>();
  subagents.forEach((agent, index) => {
    const field = `subagents[${String(index)}]`;
    if (typeof agent?.name !== 'string' || !NAME_PATTERN.test(agent.name)) {
      throw new HarnessConfigError(`${field}.name must match ${String(NAME_PATTERN)}.`, { field: `${field}.name` });
    }
    if (byName.has(agent.name)) throw new HarnessConfigError(`Two subagents are named "${agent.name}".`, { field: `${field}.name` });
    if (typeof agent.description !== 'string' || agent.description.trim() === '') {
      throw new HarnessConfigError(`${field}.description must be a non-empty string.`, { field: `${field}.description` });
    }
    if (typeof agent.systemPrompt !== 'string' || agent.systemPrompt.trim() === '') {
      throw new HarnessConfigError(`${field}.systemPrompt must be a non-empty string.`, { field: `${field}.systemPrompt` });
    }
    if (agent.model === undefined && model === undefined && backend === undefined) {
      throw new HarnessConfigError(`${field} has no model: give the registry a model or backend, or the subagent a model.`, { field: `${field}.model` });
    }
    if (Array.isArray(agent.tools)) {
      for (const name of agent.tools as unknown[]) {
        if (typeof name !== 'string') throw new HarnessConfigError(`${field}.tools must list tool names.`, { field: `${field}.tools` });
        if (name === SUBAGENT_TOOL_NAME) continue;
        if (tools === undefined) {
          throw new HarnessConfigError(`${field}.tools names "${name}", but the registry has no tools to pick from.`, { field: `${field}.tools` });
        }
        if (Array.isArray(declared) && !declared.includes(name)) {
          throw new HarnessConfigError(`${field}.tools names "${name}", which the tools registry does not offer.`, { field: `${field}.tools` });
        }
      }
    } else if (agent.tools !== undefined && (typeof agent.tools.listAvailable !== 'function' || typeof agent.tools.execute !== 'function')) {
      throw new HarnessConfigError(`${field}.tools must be an array of tool names or a tool registry.`, { field: `${field}.tools` });
    }
    if (agent.limits !== undefined && (typeof agent.limits !== 'object' || agent.limits === null)) {
      throw new HarnessConfigError(`${field}.limits must be an object.`, { field: `${field}.limits` });
    }
    byName.set(agent.name, agent);
  });
  return { ...options, byName, maxDepth };
}
