export { createSubagentToolRegistry } from './create-subagent-tool-registry.js';
export { SUBAGENT_TOOL_NAME, type SubagentDefinition, type SubagentToolOptions } from './subagent-definition.js';
