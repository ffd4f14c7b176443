/** The wire protocols a provider profile can name (kebab-case, as stored). */
export type ProviderProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini-generate-content' | 'ollama-chat';

/** Every protocol, in the order the docs list them. */
export const PROVIDER_PROTOCOLS: readonly ProviderProtocol[] = /* @__PURE__ */ Object.freeze([
  'openai-chat',
  'openai-responses',
  'anthropic-messages',
  'gemini-generate-content',
  'ollama-chat',
]);

const pascalCaseNames = new Map<string, ProviderProtocol>([
  ['OpenAiChatCompletions', 'openai-chat'],
  ['OpenAiResponses', 'openai-responses'],
  ['AnthropicMessages', 'anthropic-messages'],
  ['GeminiGenerateContent', 'gemini-generate-content'],
  ['OllamaChat', 'ollama-chat'],
]);

/**
 * The protocol a profile names, accepting the kebab-case names and the PascalCase aliases
 * (`OpenAiChatCompletions`, `OpenAiResponses`, `AnthropicMessages`, `GeminiGenerateContent`,
 * `OllamaChat`) exactly as spelled; `undefined` for anything else.
 */
export function normalizeProviderProtocol(name: unknown): ProviderProtocol | undefined {
  if (typeof name !== 'string') return undefined;
  return (PROVIDER_PROTOCOLS as readonly string[]).includes(name) ? (name as ProviderProtocol) : pascalCaseNames.get(name);
}

/** All accepted spellings, for error messages. */
export function acceptedProtocolNames(): string[] {
  return [...PROVIDER_PROTOCOLS, ...pascalCaseNames.keys()];
}
