export { BASH_TOOL_NAMES, createBashToolRegistry } from './create-bash-tool-registry.js';
export type { BashToolOptions } from './bash-tool-options.js';
