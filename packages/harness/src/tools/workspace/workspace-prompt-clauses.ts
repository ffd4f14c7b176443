/**
 * Prompt clause: every statement about workspace content must name the file it came from, using
 * the `sourcePath` the workspace tools return.
 */
export const CITE_SOURCE_PATHS_CLAUSE =
  'When you state anything that comes from the workspace, cite the file it came from by its exact ' +
  '`sourcePath` as returned in the workspace tool result (for example "(source: /docs/setup.md)"). ' +
  'Only cite paths that a tool actually returned in this conversation; never invent or guess a path.';

/**
 * Prompt clause: an empty search or listing, or a "not found", is an answer in itself and must be
 * reported, not papered over with prior knowledge.
 */
export const EMPTY_RESULT_HONESTY_CLAUSE =
  'If a workspace search returns no matches, a listing is empty, or a file is not found, say so plainly ' +
  '(name the query or path you tried). Do not fill the gap with prior knowledge or assumptions and do not ' +
  'present guesses as workspace content; you may try a different query or path first.';

/**
 * Prompt clause: tool failures are reported to the user with the tool name and what went wrong,
 * and truncated content is acknowledged.
 */
export const SURFACE_TOOL_ERRORS_CLAUSE =
  'If a tool returns an error, tell the user which tool failed and what its error said, and answer only ' +
  'from what you could actually read. If a result says its content was truncated, say that your answer is ' +
  'based on part of the file, or read the rest before answering.';

/** The three clauses above, in order, ready to join into a system prompt. */
export const HALLUCINATION_PREVENTION_CLAUSES = /* @__PURE__ */ Object.freeze([
  CITE_SOURCE_PATHS_CLAUSE,
  EMPTY_RESULT_HONESTY_CLAUSE,
  SURFACE_TOOL_ERRORS_CLAUSE,
] as const);
