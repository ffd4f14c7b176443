export { createOpenAICompatibleModel } from './create-openai-compatible-model.js';
export type { OpenAICompatibleModel } from './openai-compatible-model.js';
export {
  DEFAULT_OPENAI_COMPATIBLE_MODEL_OPTIONS,
  type OpenAICompatibleModelOptions,
} from './openai-compatible-model-options.js';
