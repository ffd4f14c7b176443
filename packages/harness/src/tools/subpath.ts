/**
 * @module @agent-assistant/harness/tools
 * The tools (the same ones the main entry exports, workspace tools included) and the prompt
 * clauses that keep answers grounded in what the workspace tools returned (Worker-safe).
 */
export * from './index.js';
export * from './workspace/index.js';
export * from './bash/index.js';
export {
  CITE_SOURCE_PATHS_CLAUSE,
  EMPTY_RESULT_HONESTY_CLAUSE,
  HALLUCINATION_PREVENTION_CLAUSES,
  SURFACE_TOOL_ERRORS_CLAUSE,
} from './workspace/workspace-prompt-clauses.js';
