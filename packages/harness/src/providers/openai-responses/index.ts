export { createOpenAIResponsesModel, type OpenAIResponsesModel } from './create-openai-responses-model.js';
export {
  DEFAULT_OPENAI_RESPONSES_MODEL_OPTIONS,
  type OpenAIResponsesModelOptions,
  type OpenAIResponsesReasoningEffort,
} from './openai-responses-model-options.js';
export {
  convertToOpenAIResponsesInput,
  convertToOpenAIResponsesTools,
  type ConvertToOpenAIResponsesInputOptions,
  type OpenAIResponsesConversation,
  type OpenAIResponsesPrompt,
} from './convert-to-openai-responses-input.js';
export type { OpenAIResponsesInputContent, OpenAIResponsesInputItem, OpenAIResponsesReasoningItem, OpenAIResponsesTool } from './openai-responses-api-types.js';
