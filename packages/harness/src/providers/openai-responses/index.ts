export { createOpenAIResponsesModel, type OpenAIResponsesModel } from './create-openai-responses-model.js';
export {
  DEFAULT_OPENAI_RESPONSES_MODEL_OPTIONS,
  type OpenAIResponsesModelOptions,
  type OpenAIResponsesReasoningEffort,
} from './openai-responses-model-options.js';
