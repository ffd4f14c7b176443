import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
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

/** The sampling one model runs with: the profile's, replaced by the caller's. */
interface Sampling {
  temperature: number | undefined;
  topP: number | undefined;
}

type ProtocolFactory = (profile: ProviderProfile, transport: HttpProviderOptions, sampling: Sampling) => HarnessModelAdapter;

/** `top_p` as a top-level body field (OpenAI chat, Anthropic Messages, OpenAI Responses). */
const topPBody = (sampling: Sampling) => (sampling.topP === undefined ? {} : { extraBody: { top_p: sampling.topP } });

const factories: Readonly<Record<ProviderProtocol, ProtocolFactory>> = {
  'openai-chat': (profile, transport, sampling) =>
    createOpenAICompatibleModel({
      ...transport,
      baseUrl: profile.endpoint,
      model: profile.model,
      providerName: profile.provider,
      temperature: sampling.temperature,
      maxTokens: profile.maxOutputTokens,
      namedToolChoice: profile.namedToolChoice,
      ...topPBody(sampling),
    }),
  'anthropic-messages': (profile, transport, sampling) =>
    createAnthropicModel({
      ...transport,
      baseUrl: profile.endpoint,
      model: profile.model,
      maxTokens: profile.maxOutputTokens ?? 0,
      temperature: sampling.temperature,
      ...topPBody(sampling),
    }),
  'ollama-chat': (profile, transport, sampling) =>
    createOllamaModel({
      ...transport,
      baseUrl: profile.endpoint,
      model: profile.model,
      temperature: sampling.temperature,
      maxTokens: profile.maxOutputTokens,
      ...(sampling.topP === undefined ? {} : { modelOptions: { top_p: sampling.topP } }),
    }),
  'openai-responses': (profile, transport, sampling) =>
    createOpenAIResponsesModel({
      ...transport,
      baseUrl: profile.endpoint,
      model: profile.model,
      temperature: sampling.temperature,
      maxTokens: profile.maxOutputTokens,
      ...topPBody(sampling),
    }),
  'gemini-generate-content': (profile, transport, sampling) =>
    createGeminiModel({
      ...transport,
      baseUrl: profile.endpoint,
      model: profile.model,
      temperature: sampling.temperature,
      maxTokens: profile.maxOutputTokens,
      ...(sampling.topP === undefined ? {} : { generationConfig: { topP: sampling.topP } }),
    }),
};

/**
 * Builds the model adapter a profile describes, dispatching on its protocol. The key is read at
 * call time from `env` (e.g. Workers bindings), then `process.env`, under the variable the profile
 * names — never from the profile; an `authMode: 'none'` profile sends no key, even to a provider's
 * own host. `options.sampling` replaces the profile's `temperature` and adds
 * `top_p` (sent as each protocol names it: `top_p`, Ollama `options.top_p`, Gemini
 * `generationConfig.topP`). Every output carries `metadata.receipt` (profile id, protocol,
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
    // The profile states its key explicitly: its variable, or (`authMode: 'none'`) no key at all.
    apiKey: profile.secretSource === undefined ? null : { env: profile.secretSource.name },
    env: options.env,
    fetch: options.fetch,
    retry: options.retry,
    timeoutMs: options.timeoutMs,
    pricing: profile.pricing,
    maxInputBytes: profile.maxInputBytes,
    contextWindow: profile.contextWindow,
    allowInsecureHttp: profile.allowInsecureHttp,
  };
  return withReceipt(factories[profile.protocol](profile, transport, readSampling(profile, options.sampling)), profile);
}

/** The profile's temperature, replaced by `sampling`'s fields where given (each checked for its range). */
function readSampling(profile: ProviderProfile, sampling: CreateModelFromProfileOptions['sampling']): Sampling {
  if (sampling === undefined) return { temperature: profile.temperature, topP: undefined };
  if (typeof sampling !== 'object' || sampling === null) throw new HarnessConfigError('sampling must be an object.', { field: 'sampling' });
  const { temperature, topP } = sampling;
  return { temperature: inRange(temperature, 2, 'sampling.temperature') ?? profile.temperature, topP: inRange(topP, 1, 'sampling.topP') };
}

function inRange(value: unknown, max: number, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max) {
    throw new HarnessConfigError(`${field} must be a number from 0 to ${String(max)}.`, { field });
  }
  return value;
}

