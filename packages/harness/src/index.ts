/**
 * @module @agent-assistant/harness
 * Run one bounded assistant turn: model → tools → model under hard limits, ending in one truthful
 * outcome with usage, trace events and, when paused, a resumable continuation.
 *
 * This entry holds what you build with. The protocol plumbing under it (request converters, wire
 * encoders and decoders, output parsers, prompt clauses) is in the subpaths named after its folder:
 * `./providers`, `./local`, `./sessions`, `./tools`, `./agent-relay`.
 */
export * from './shared/index.js';
export * from './execution/index.js';
export * from './core/index.js';
export * from './providers/index.js';
export * from './tools/index.js';
export * from './tools/workspace/index.js';
export * from './tools/bash/index.js';
export * from './local/index.js';
export * from './sessions/index.js';
export * from './agent-relay/protocol/index.js';
export * from './agent-relay/execution-adapter/index.js';
export * from './otel/index.js';
export * from './project/index.js';
export * from './context/output/index.js';
export * from './context/packets/index.js';
export * from './deprecated-exports.js';
