/**
 * @module @agent-assistant/harness/providers
 * The HTTP model providers (the same ones the main entry exports) and the protocol plumbing under
 * them (Worker-safe): the `convertTo*` request converters, the stop/finish-reason mappers and the
 * wire types of each API, for code that speaks an API itself.
 */
export * from './index.js';
export {
  convertToAnthropicMessages,
  convertToAnthropicTools,
  type AnthropicConversation,
  type AnthropicPrompt,
} from './anthropic/convert-to-anthropic-messages.js';
export { mapAnthropicStopReason } from './anthropic/map-anthropic-stop-reason.js';
export type {
  AnthropicRequestContentBlock,
  AnthropicRequestMessage,
  AnthropicSource,
  AnthropicTool,
  AnthropicToolChoice,
} from './anthropic/anthropic-api-types.js';
export {
  convertToGeminiContents,
  convertToGeminiTools,
  GEMINI_UNKNOWN_THOUGHT_SIGNATURE,
  type GeminiConversation,
  type GeminiPrompt,
} from './gemini/convert-to-gemini-contents.js';
export type { GeminiContent, GeminiFunctionDeclaration, GeminiPart } from './gemini/gemini-api-types.js';
export { convertToOllamaMessages, convertToOllamaTools, type OllamaConversation } from './ollama/convert-to-ollama-messages.js';
export type { OllamaMessage, OllamaTool, OllamaToolCall } from './ollama/ollama-api-types.js';
export {
  convertToOpenAICompatibleMessages,
  convertToOpenAICompatibleTools,
  type ConvertToOpenAICompatibleMessagesOptions,
  type OpenAICompatibleConversation,
} from './openai-compatible/convert-to-openai-compatible-messages.js';
export { mapOpenAICompatibleFinishReason } from './openai-compatible/map-openai-compatible-finish-reason.js';
export type {
  OpenAICompatibleContentPart,
  OpenAICompatibleMessage,
  OpenAICompatibleResponseFormat,
  OpenAICompatibleTool,
  OpenAICompatibleToolCall,
  OpenAICompatibleToolChoice,
} from './openai-compatible/openai-compatible-api-types.js';
export {
  convertToOpenAIResponsesInput,
  convertToOpenAIResponsesTools,
  type ConvertToOpenAIResponsesInputOptions,
  type OpenAIResponsesConversation,
  type OpenAIResponsesPrompt,
} from './openai-responses/convert-to-openai-responses-input.js';
export type {
  OpenAIResponsesInputContent,
  OpenAIResponsesInputItem,
  OpenAIResponsesReasoningItem,
  OpenAIResponsesTool,
} from './openai-responses/openai-responses-api-types.js';
