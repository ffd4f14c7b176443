export {
  createSubagentToolRegistry,
  SUBAGENT_TOOL_NAME,
  type SubagentDefinition,
  type SubagentToolOptions,
} from './create-subagent-tool-registry.js';
