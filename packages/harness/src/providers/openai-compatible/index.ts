export { createOpenAICompatibleModel } from './create-openai-compatible-model.js';
export type { OpenAICompatibleModel } from './openai-compatible-model.js';
export {
  DEFAULT_OPENAI_COMPATIBLE_MODEL_OPTIONS,
  type OpenAICompatibleModelOptions,
} from './openai-compatible-model-options.js';
export {
  convertToOpenAICompatibleMessages,
  convertToOpenAICompatibleTools,
  type ConvertToOpenAICompatibleMessagesOptions,
  type OpenAICompatibleConversation,
} from './convert-to-openai-compatible-messages.js';
export { mapOpenAICompatibleFinishReason } from './map-openai-compatible-finish-reason.js';
export type {
  OpenAICompatibleContentPart,
  OpenAICompatibleMessage,
  OpenAICompatibleResponseFormat,
  OpenAICompatibleTool,
  OpenAICompatibleToolCall,
  OpenAICompatibleToolChoice,
} from './openai-compatible-api-types.js';
