export { createAnthropicModel, type AnthropicModel } from './create-anthropic-model.js';
export { DEFAULT_ANTHROPIC_MODEL_OPTIONS, type AnthropicModelOptions } from './anthropic-model-options.js';
export {
  convertToAnthropicMessages,
  convertToAnthropicTools,
  type AnthropicConversation,
  type AnthropicPrompt,
} from './convert-to-anthropic-messages.js';
export { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
export type { AnthropicRequestContentBlock, AnthropicRequestMessage, AnthropicSource, AnthropicTool, AnthropicToolChoice } from './anthropic-api-types.js';
