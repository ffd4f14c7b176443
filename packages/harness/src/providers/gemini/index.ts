export { createGeminiModel, type GeminiModel } from './create-gemini-model.js';
export { DEFAULT_GEMINI_MODEL_OPTIONS, type GeminiModelOptions } from './gemini-model-options.js';
export {
  convertToGeminiContents,
  convertToGeminiTools,
  GEMINI_UNKNOWN_THOUGHT_SIGNATURE,
  type GeminiConversation,
  type GeminiPrompt,
} from './convert-to-gemini-contents.js';
export type { GeminiContent, GeminiFunctionDeclaration, GeminiPart } from './gemini-api-types.js';
