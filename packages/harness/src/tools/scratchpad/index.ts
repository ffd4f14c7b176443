export { createScratchpadToolRegistry, SCRATCHPAD_TOOL_NAMES, type ScratchpadToolOptions } from './create-scratchpad-tool-registry.js';
