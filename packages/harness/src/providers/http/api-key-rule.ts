import type { ApiKeySource } from './resolve-api-key.js';

/**
 * The hosts whose provider documents an API-key variable, and that variable. A request to one of
 * these hosts over `https:` reads it when no `apiKey` was given; no other host ever does.
 */
const KEY_VARIABLE_BY_HOST: ReadonlyMap<string, string> = new Map([
  ['api.openai.com', 'OPENAI_API_KEY'],
  ['api.anthropic.com', 'ANTHROPIC_API_KEY'],
  ['generativelanguage.googleapis.com', 'GEMINI_API_KEY'],
  ['openrouter.ai', 'OPENROUTER_API_KEY'],
  ['ollama.com', 'OLLAMA_API_KEY'],
]);

/**
 * The one API-key rule of every HTTP provider:
 * 1. an explicit `apiKey` wins — a key, `{ env: 'NAME' }`, or `null` for "send no key";
 * 2. otherwise, when `endpoint` is `https:` on a provider's own host (`api.openai.com`,
 *    `api.anthropic.com`, `generativelanguage.googleapis.com`, `openrouter.ai`, `ollama.com`),
 *    that provider's documented variable, read at call time (`env` option, then `process.env`
 *    where a `process` exists);
 * 3. otherwise no key: a provider's variable is never sent to another host.
 */
export function chooseApiKeySource(apiKey: ApiKeySource | null | undefined, endpoint: URL): ApiKeySource | undefined {
  if (apiKey === null) return undefined;
  if (apiKey !== undefined) return apiKey;
  const variable = documentedKeyVariable(endpoint);
  return variable === undefined ? undefined : { env: variable };
}

/** The documented key variable of the provider that owns `endpoint`'s host, when it is `https:` there. */
export function documentedKeyVariable(endpoint: URL): string | undefined {
  if (endpoint.protocol !== 'https:' || endpoint.port !== '') return undefined;
  return KEY_VARIABLE_BY_HOST.get(endpoint.hostname);
}
