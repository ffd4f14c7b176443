export { createOpenRouterModelAdapter, OpenRouterModelAdapter, type OpenRouterModelAdapterOptions } from './openrouter-model-adapter.js';
export {
  createOpenRouterAdapter,
  OPENROUTER_EXECUTION_CAPABILITIES,
  OpenRouterExecutionAdapter,
  type OpenRouterExecutionAdapterOptions,
} from './openrouter-execution-adapter.js';
export { DEFAULT_OPENROUTER_OPTIONS, type OpenRouterBaseOptions } from './openrouter-options.js';
