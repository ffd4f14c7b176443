export { createAnthropicModel, type AnthropicModel } from './create-anthropic-model.js';
export { DEFAULT_ANTHROPIC_MODEL_OPTIONS, type AnthropicModelOptions } from './anthropic-model-options.js';
