/**
 * @module tools
 * Typed tools from schemas, registry composition, and the read-only public GitHub tools.
 * (The workspace tools and the bash tool have their own folders, exported by the main entry beside this one.)
 */
export {
  defineTool,
  type AnyTypedTool,
  type DefineToolOptions,
  type ToolApprovalRule,
  type ToolContext,
  type ToolRetryOptions,
  type ToolReturn,
  type TypedTool,
} from './define-tool.js';
export type {
  InferToolInput,
  JsonSchemaToolInput,
  StandardSchemaWithJsonSchema,
  SuccessValue,
  ToolInputSchema,
  ToolInputValidationResult,
} from './tool-input-schema.js';
export { createToolRegistry, type TypedToolRegistry } from './create-tool-registry.js';
export { composeToolRegistries, type ComposedToolRegistry } from './compose-tool-registries.js';
export { ToolExecutionError, type ToolExecutionErrorOptions } from './tool-execution-error.js';
export { toolOutput, type ToolOutput, type ToolOutputParts } from './tool-output.js';
export * from './github/index.js';
export * from './planning/index.js';
export * from './question/index.js';
export * from './scratchpad/index.js';
export * from './mcp/index.js';
export * from './idempotency/index.js';
export * from './memory/index.js';
export * from './subagents/index.js';
