import type { HarnessModelAdapter } from '../../core/types/model.js';
import { createAnthropicModel } from '../anthropic/create-anthropic-model.js';
import type { HttpProviderOptions } from '../http/http-provider-options.js';
import { createGeminiModel } from '../gemini/create-gemini-model.js';
import { createOllamaModel } from '../ollama/create-ollama-model.js';
import { createOpenAICompatibleModel } from '../openai-compatible/create-openai-compatible-model.js';
import { createOpenAIResponsesModel } from '../openai-responses/create-openai-responses-model.js';
import { findProfile } from './internal/parsed-sets.js';
import { withReceipt } from './internal/with-receipt.js';
import type { CreateModelFromProfileOptions, ProfileModel, ProviderProfile, ProviderProfileSet } from './provider-profile-types.js';
import type { ProviderProtocol } from './provider-protocols.js';

type ProtocolFactory = (profile: ProviderProfile, transport: HttpProviderOptions) => HarnessModelAdapter;

const factories: Readonly<Record<ProviderProtocol, ProtocolFactory>> = {
  'openai-chat': (profile, transport) =>
    createOpenAICompatibleModel({
      ...transport,
      baseUrl: profile.endpoint,
      model: profile.model,
      providerName: profile.provider,
      temperature: profile.temperature,
      maxTokens: profile.maxOutputTokens,
      namedToolChoice: profile.namedToolChoice,
    }),
  'anthropic-messages': (profile, transport) =>
    createAnthropicModel({
      ...transport,
      apiKey: transport.apiKey ?? '',
      baseUrl: profile.endpoint,
      model: profile.model,
      maxTokens: profile.maxOutputTokens ?? 0,
      temperature: profile.temperature,
    }),
  'ollama-chat': (profile, transport) =>
    createOllamaModel({ ...transport, baseUrl: profile.endpoint, model: profile.model, temperature: profile.temperature, maxTokens: profile.maxOutputTokens }),
  'openai-responses': (profile, transport) =>
    createOpenAIResponsesModel({
      ...transport,
      baseUrl: profile.endpoint,
      model: profile.model,
      temperature: profile.temperature,
      maxTokens: profile.maxOutputTokens,
    }),
  'gemini-generate-content': (profile, transport) =>
    createGeminiModel({
      ...transport,
      baseUrl: profile.endpoint,
      model: profile.model,
      temperature: profile.temperature,
      maxTokens: profile.maxOutputTokens,
    }),
};

/**
 * Builds the model adapter a profile describes, dispatching on its protocol. The key is read at
 * call time from `env` (e.g. Workers bindings), then `process.env`, under the variable the profile
 * names — never from the profile. Every output carries `metadata.receipt` (profile id, protocol,
 * model, endpoint host, request bytes, usage and cost); a request larger than the profile's
 * `maxInputBytes` ends `input_too_large` before any call.
 * @throws HarnessConfigError when the set was not made by `parseProviderProfiles`, the name is unknown, or an option is invalid.
 * @example
 * ```ts
 * const set = parseProviderProfiles(json);
 * const harness = createHarness({ model: createModelFromProfile(set, 'router', { env }), limits: { budgetLimit: 0.05 } });
 * ```
 */
export function createModelFromProfile(set: ProviderProfileSet, idOrAlias: string, options: CreateModelFromProfileOptions = {}): ProfileModel {
  const { profile } = findProfile(set, idOrAlias);
  const transport: HttpProviderOptions = {
    ...(profile.secretSource === undefined ? {} : { apiKey: { env: profile.secretSource.name } }),
    env: options.env,
    fetch: options.fetch,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    pricing: profile.pricing,
    maxInputBytes: profile.maxInputBytes,
    contextWindow: profile.contextWindow,
    allowInsecureHttp: profile.allowInsecureHttp,
  };
  return withReceipt(factories[profile.protocol](profile, transport), profile);
}

