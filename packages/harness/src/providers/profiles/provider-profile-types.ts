import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import type { EnvironmentRecord } from '../http/resolve-api-key.js';
import type { FetchFunction } from '../http/post-json.js';
import type { RetryOptions } from '../http/retry-policy.js';
import type { ModelPricing } from '../pricing/model-pricing.js';
import type { ProviderProtocol } from './provider-protocols.js';

/** Where a profile's key comes from: an environment variable (or a Workers binding of that name passed as `env`). Never the key itself. */
export interface ProviderSecretSource {
  kind: 'environment';
  /** The variable or binding name, e.g. `OPENROUTER_API_KEY`. */
  name: string;
}

/** One validated provider profile: which model, where, and with which key — stated explicitly. */
export interface ProviderProfile {
  /** Unique id within the set. */
  readonly id: string;
  /** Who runs the model (a free label for display and metadata), e.g. `openrouter`, `ollama`. */
  readonly provider: string;
  /** The wire protocol, normalized to its kebab-case name. */
  readonly protocol: ProviderProtocol;
  /** The model id as the provider names it. */
  readonly model: string;
  /** The API base URL; `https:`, or `http:` on loopback unless `allowInsecureHttp` is set. */
  readonly endpoint: string;
  /** `api-key` requires `secretSource`; `none` forbids it. */
  readonly authMode: 'none' | 'api-key';
  /** Where the key is read at call time (only with `authMode: 'api-key'`). */
  readonly secretSource?: Readonly<ProviderSecretSource> | undefined;
  /** Explicit opt-in to plain `http:` on a host that is not loopback. */
  readonly allowInsecureHttp: boolean;
  /** Largest serialized request body in UTF-8 bytes (default 1 MiB, at most 16 MiB). */
  readonly maxInputBytes: number;
  /** Output-token cap; required for `anthropic-messages`. */
  readonly maxOutputTokens?: number | undefined;
  /**
   * The model's context window in tokens. Known, a harness compacts the conversation before it
   * overflows and once after the provider says it did (see docs/context.md); absent, never automatically.
   */
  readonly contextWindow?: number | undefined;
  /** Sampling temperature. */
  readonly temperature?: number | undefined;
  /** `openai-chat` only: how a named tool choice is sent (`namedToolChoice` of `createOpenAICompatibleModel`; `'required'` for llama.cpp). */
  readonly namedToolChoice?: 'function' | 'required' | undefined;
  /** Prices per million tokens, turning usage into cost. */
  readonly pricing?: Readonly<ModelPricing> | undefined;
  /** A display name. */
  readonly label?: string | undefined;
}

/** A validated set of profiles and aliases, from `parseProviderProfiles`. */
export interface ProviderProfileSet {
  /** The profiles in file order. */
  readonly profiles: readonly ProviderProfile[];
  /** Alias → profile id. */
  readonly aliases: ReadonlyMap<string, string>;
}

/** Options of `inspectProviderProfile`. */
export interface InspectProviderProfileOptions {
  /** Values (e.g. Cloudflare Workers bindings) looked up before `process.env`. */
  env?: EnvironmentRecord | undefined;
}

/** What `inspectProviderProfile` found, without calling the provider or revealing any key. */
export interface ProviderProfileInspection {
  /** The profile id (also when looked up by alias). */
  id: string;
  /** The alias used for the lookup, if one was. */
  alias?: string | undefined;
  provider: string;
  protocol: ProviderProtocol;
  model: string;
  /** The endpoint's host (and port), e.g. `openrouter.ai`. */
  endpointHost: string;
  /** Whether requests travel over `https:`. */
  encrypted: boolean;
  authMode: 'none' | 'api-key';
  /** For `api-key` profiles: the variable's name and whether it is set (never its value). */
  secret?: { kind: 'environment'; name: string; present: boolean } | undefined;
  /** Why the profile cannot run as it stands (empty when nothing was found). */
  problems: string[];
  /**
   * `'not_verified'` when nothing is wrong that can be seen without a call (the provider was not
   * asked, so the key, model and endpoint are unverified); `'no'` when `problems` is not empty.
   */
  runnable: 'not_verified' | 'no';
}

/** Options of `createModelFromProfile`. */
export interface CreateModelFromProfileOptions {
  /** Values (e.g. Cloudflare Workers bindings) looked up for the secret before `process.env`. */
  env?: EnvironmentRecord | undefined;
  /** The `fetch` to use; the global `fetch` otherwise. */
  fetch?: FetchFunction | undefined;
  /** How failed attempts are retried. */
  retry?: RetryOptions | undefined;
  /** Time limit of one attempt in milliseconds. */
  timeoutMs?: number | undefined;
  /**
   * Sampling for this model, e.g. an agent file's `temperature` and `top_p`: `temperature`
   * (0 to 2) replaces the profile's; `topP` (0 to 1) is sent as the protocol's nucleus-sampling
   * field. Out of range throws `HarnessConfigError`. @default the profile's temperature, no top_p
   */
  sampling?: { temperature?: number | undefined; topP?: number | undefined } | undefined;
}

/** What a profile model stamps on every output as `metadata.receipt`. */
export interface ProviderProfileReceipt {
  profileId: string;
  protocol: ProviderProtocol;
  provider: string;
  model: string;
  endpointHost: string;
  /** UTF-8 size of the request body (0 when none was built). */
  requestBytes: number;
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  cachedInputTokens?: number | undefined;
  reasoningTokens?: number | undefined;
  /** Cost of the call: provider-reported, else from `pricing`; absent when neither exists. */
  costUnits?: number | undefined;
}

/** A profile's model adapter: the protocol adapter, stamping `metadata.receipt` on every output. */
export interface ProfileModel extends HarnessModelAdapter {
  /** The profile's id. */
  readonly profileId: string;
  /** Runs one model step with a single request; never rejects for provider faults. */
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput>;
  /** Runs one streamed model step: `text_delta` parts, then exactly one `output` part. */
  streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart>;
}
