import type { HarnessModelAdapter, HarnessModelOutput } from '../../../core/types/model.js';
import type { ProfileModel, ProviderProfile, ProviderProfileReceipt } from '../provider-profile-types.js';

/** The receipt of one output: who answered, how big the request was, and what it used and cost. */
export function receiptFor(profile: ProviderProfile, endpointHost: string, output: HarnessModelOutput): ProviderProfileReceipt {
  const usage = output.usage ?? {};
  const requestBytes = output.metadata?.requestBytes;
  return {
    profileId: profile.id,
    protocol: profile.protocol,
    provider: profile.provider,
    model: profile.model,
    endpointHost,
    requestBytes: typeof requestBytes === 'number' ? requestBytes : 0,
    ...(usage.inputTokens === undefined ? {} : { inputTokens: usage.inputTokens }),
    ...(usage.outputTokens === undefined ? {} : { outputTokens: usage.outputTokens }),
    ...(usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: usage.cachedInputTokens }),
    ...(usage.reasoningTokens === undefined ? {} : { reasoningTokens: usage.reasoningTokens }),
    ...(usage.costUnits === undefined ? {} : { costUnits: usage.costUnits }),
  };
}

/** Wraps a protocol adapter so every output carries `metadata.receipt` (and `metadata.profileId`). */
export function withReceipt(adapter: HarnessModelAdapter, profile: ProviderProfile): ProfileModel {
  const endpointHost = new URL(profile.endpoint).host;
  const stamp = (output: HarnessModelOutput): HarnessModelOutput => ({
    ...output,
    metadata: { ...output.metadata, profileId: profile.id, receipt: receiptFor(profile, endpointHost, output) },
  });
  const stream = adapter.streamStep?.bind(adapter);
  return {
    profileId: profile.id,
    contextWindow: adapter.contextWindow,
    async nextStep(input) {
      return stamp(await adapter.nextStep(input));
    },
    async *streamStep(input) {
      if (stream === undefined) {
        yield { type: 'output', output: stamp(await adapter.nextStep(input)) };
        return;
      }
      for await (const part of stream(input)) yield part.type === 'output' ? { type: 'output', output: stamp(part.output) } : part;
    },
  };
}
