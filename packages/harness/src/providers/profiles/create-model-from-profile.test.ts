import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import {
  createFakeAnthropicServer,
  createFakeGeminiServer,
  createFakeOllamaServer,
  createFakeOpenAICompatibleServer,
  createFakeOpenAIResponsesServer,
  type FakeModelServer,
} from '../../testing/node/index.js';
import { createModelInput } from '../__fixtures__/create-model-input.js';
import { createModelFromProfile } from './create-model-from-profile.js';
import { inspectProviderProfile } from './inspect-provider-profile.js';
import { parseProviderProfiles } from './parse-provider-profiles.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function track(server: Promise<FakeModelServer>) {
  const started = await server;
  servers.push(started);
  return started;
}

const key = 'sk-profile-test-0123456789';
const env = { ROUTER_KEY: key, ANTHROPIC_KEY: key };
const tools = createFakeToolRegistry({ lookup: ({ q }) => `found ${String(q)}` });

function profilesFor(urls: { ollama: string; openai: string; anthropic: string }, extra: Record<string, unknown> = {}) {
  return parseProviderProfiles({
    profiles: [
      { id: 'local-model', provider: 'ollama', protocol: 'OllamaChat', model: 'qwen3:8b', endpoint: urls.ollama, authMode: 'none', ...extra },
      {
        id: 'router',
        provider: 'openrouter',
        protocol: 'openai-chat',
        model: 'openai/gpt-5-mini',
        endpoint: urls.openai,
        authMode: 'api-key',
        secretSource: { kind: 'environment', name: 'ROUTER_KEY' },
        pricing: { inputPerMillionTokens: 0.25, outputPerMillionTokens: 2 },
      },
      {
        id: 'claude',
        provider: 'anthropic',
        protocol: 'AnthropicMessages',
        model: 'claude-fake',
        endpoint: urls.anthropic,
        authMode: 'api-key',
        secretSource: { kind: 'environment', name: 'ANTHROPIC_KEY' },
        maxOutputTokens: 512,
      },
    ],
    aliases: { local: 'local-model', default: 'router' },
  });
}

describe('inspectProviderProfile', () => {
  const set = profilesFor({ ollama: 'http://127.0.0.1:11434', openai: 'https://openrouter.ai/api/v1', anthropic: 'https://api.anthropic.com/v1' });

  it('reports shape and secret presence without revealing the key, always as not_verified', () => {
    const inspection = inspectProviderProfile(set, 'default', { env });
    expect(inspection).toEqual({
      id: 'router',
      alias: 'default',
      provider: 'openrouter',
      protocol: 'openai-chat',
      model: 'openai/gpt-5-mini',
      endpointHost: 'openrouter.ai',
      encrypted: true,
      authMode: 'api-key',
      secret: { kind: 'environment', name: 'ROUTER_KEY', present: true },
      problems: [],
      runnable: 'not_verified',
    });
    expect(JSON.stringify(inspection)).not.toContain(key);
  });

  it('reports an unset variable as a problem, and needs no secret for authMode none', () => {
    expect(inspectProviderProfile(set, 'router', { env: {} })).toMatchObject({
      secret: { name: 'ROUTER_KEY', present: false },
      problems: ['The environment variable ROUTER_KEY is not set.'],
      runnable: 'no',
    });
    expect(inspectProviderProfile(set, 'local')).toMatchObject({ id: 'local-model', endpointHost: '127.0.0.1:11434', encrypted: false, problems: [], runnable: 'not_verified' });
  });

  it('refuses unknown names and sets that did not come from parseProviderProfiles', () => {
    expect(() => inspectProviderProfile(set, 'nope')).toThrow(/No provider profile or alias "nope"; known: local-model, router, claude, local, default/);
    expect(() => inspectProviderProfile(set, '__proto__')).toThrow(HarnessConfigError);
    expect(() => inspectProviderProfile({ profiles: set.profiles, aliases: set.aliases }, 'router')).toThrow(/parseProviderProfiles/);
  });
});

describe('createModelFromProfile', () => {
  async function setup(extra: Record<string, unknown> = {}) {
    const ollama = await track(createFakeOllamaServer());
    const openai = await track(createFakeOpenAICompatibleServer());
    const anthropic = await track(createFakeAnthropicServer());
    return { ollama, openai, anthropic, set: profilesFor({ ollama: ollama.url, openai: openai.url, anthropic: anthropic.url }, extra) };
  }

  it('runs a tool turn through an openai-chat profile: key from env, priced usage, a receipt on every output', async () => {
    const { openai, set } = await setup();
    openai.enqueue(
      { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }], usage: { inputTokens: 1000, outputTokens: 100 } },
      { text: 'Found it.', usage: { inputTokens: 1500, outputTokens: 50 } },
    );
    const model = createModelFromProfile(set, 'default', { env });
    const result = await createHarness({ model, tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Found it.' } });
    // 2500 × 0.25 + 150 × 2 = 925 per million
    expect(result.usage.totalCostUnits).toBeCloseTo(925e-6, 12);
    expect(openai.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(result.metadata?.modelReceipts).toEqual([
      expect.objectContaining({ profileId: 'router', protocol: 'openai-chat', inputTokens: 1000, outputTokens: 100, costUnits: expect.closeTo(450e-6, 12) as number }),
      expect.objectContaining({ profileId: 'router', inputTokens: 1500, outputTokens: 50, costUnits: expect.closeTo(475e-6, 12) as number }),
    ]);
    openai.enqueue({ text: 'again', usage: { inputTokens: 400, cachedInputTokens: 100, outputTokens: 20, reasoningTokens: 5 } });
    const output = await createModelFromProfile(set, 'router', { env }).nextStep(createModelInput());
    expect(output.metadata).toMatchObject({ provider: 'openrouter', profileId: 'router' });
    expect(output.metadata?.receipt).toEqual({
      profileId: 'router',
      protocol: 'openai-chat',
      provider: 'openrouter',
      model: 'openai/gpt-5-mini',
      endpointHost: new URL(openai.url).host,
      requestBytes: Buffer.byteLength(JSON.stringify(openai.requests[2]!.body)),
      inputTokens: 400,
      cachedInputTokens: 100,
      outputTokens: 20,
      reasoningTokens: 5,
      costUnits: expect.closeTo(140e-6, 12) as number,
    });
    expect(openai.requests).toHaveLength(3);
    expect(JSON.stringify(output)).not.toContain(key);
  });

  it("sends a named tool choice as 'required' over that tool alone with an openai-chat profile's namedToolChoice (llama.cpp)", async () => {
    const server = await track(createFakeOpenAICompatibleServer({ replies: [{ toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }, { text: 'Found it.' }] }));
    const set = parseProviderProfiles({
      profiles: [{ id: 'llama', provider: 'llama.cpp', protocol: 'openai-chat', model: 'qwen2.5', endpoint: server.url, authMode: 'none', namedToolChoice: 'required' }],
    });
    expect(set.profiles[0]).toMatchObject({ namedToolChoice: 'required' });
    const registry = createFakeToolRegistry({ lookup: ({ q }) => `found ${String(q)}`, other: () => 'never' });
    const result = await createHarness({ model: createModelFromProfile(set, 'llama'), tools: registry }).runTurn(createTurnInput({ toolChoice: { name: 'lookup' } }));
    expect(result).toMatchObject({ outcome: 'completed' });
    const first = server.requests[0]!.body as { tool_choice: unknown; tools: { function: { name: string } }[] };
    expect(first.tool_choice).toBe('required');
    expect(first.tools.map((tool) => tool.function.name)).toEqual(['lookup']);
  });

  it('streams a turn through an ollama-chat profile found by alias', async () => {
    const { ollama, set } = await setup();
    ollama.enqueue({ text: 'Hello from Ollama.', deltaSize: 5, usage: { inputTokens: 9, outputTokens: 4 } });
    const stream = createHarness({ model: createModelFromProfile(set, 'local') }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas.join('')).toBe('Hello from Ollama.');
    expect(await stream.result).toMatchObject({ outcome: 'completed', usage: { totalInputTokens: 9, totalOutputTokens: 4 } });
    expect(ollama.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('runs an anthropic-messages profile with maxOutputTokens as max_tokens, and a Workers-style env binding', async () => {
    const { anthropic, set } = await setup();
    anthropic.enqueue({ text: 'Claude here.' });
    const output = await createModelFromProfile(set, 'claude', { env: { ANTHROPIC_KEY: key } }).nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'final_answer', text: 'Claude here.', metadata: { receipt: { profileId: 'claude', protocol: 'anthropic-messages' } } });
    expect(anthropic.requests[0]!.headers['x-api-key']).toBe(key);
    expect(anthropic.requests[0]!.body).toMatchObject({ max_tokens: 512, model: 'claude-fake' });
  });

  it('runs a tool turn and a streamed turn through an openai-responses profile (PascalCase protocol), with reasoning tokens priced', async () => {
    const responses = await track(createFakeOpenAIResponsesServer());
    const set = parseProviderProfiles({
      profiles: [
        {
          id: 'gpt',
          provider: 'openai',
          protocol: 'OpenAiResponses',
          model: 'gpt-5-mini',
          endpoint: responses.url,
          authMode: 'api-key',
          secretSource: { kind: 'environment', name: 'OPENAI_KEY' },
          pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 2, cachedInputPerMillionTokens: 0.5, reasoningPerMillionTokens: 3 },
        },
      ],
    });
    responses.enqueue(
      { toolCalls: [{ name: 'lookup', arguments: { q: 'y' } }], usage: { inputTokens: 100, cachedInputTokens: 40, outputTokens: 30, reasoningTokens: 20 } },
      { text: 'Answer.', usage: { inputTokens: 200, outputTokens: 10 } },
      { text: 'Streamed answer.', deltaSize: 4 },
    );
    const model = createModelFromProfile(set, 'gpt', { env: { OPENAI_KEY: key } });
    const result = await createHarness({ model, tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Answer.' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 300, totalCachedInputTokens: 40, totalOutputTokens: 40, totalReasoningTokens: 20 });
    // first call: 60 × 1 + 40 × 0.5 + 10 × 2 + 20 × 3 = 160; second: 200 × 1 + 10 × 2 = 220 (per million)
    expect(result.usage.totalCostUnits).toBeCloseTo(380e-6, 12);
    expect(result.metadata?.modelReceipts).toHaveLength(2);
    expect(responses.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
    const stream = createHarness({ model }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas.join('')).toBe('Streamed answer.');
    expect((await stream.result).metadata?.modelReceipts).toEqual([expect.objectContaining({ profileId: 'gpt', protocol: 'openai-responses' })]);
  });

  it('runs a tool turn and a streamed turn through a gemini-generate-content profile, the key only in x-goog-api-key', async () => {
    const gemini = await track(createFakeGeminiServer());
    const set = parseProviderProfiles({
      profiles: [
        {
          id: 'flash',
          provider: 'google',
          protocol: 'GeminiGenerateContent',
          model: 'gemini-2.5-flash',
          endpoint: gemini.url,
          authMode: 'api-key',
          secretSource: { kind: 'environment', name: 'GEMINI_KEY' },
          maxOutputTokens: 256,
          pricing: { inputPerMillionTokens: 0.3, outputPerMillionTokens: 2.5, reasoningPerMillionTokens: 2.5 },
        },
      ],
    });
    gemini.enqueue(
      { toolCalls: [{ name: 'lookup', arguments: { q: 'z' } }], usage: { inputTokens: 100, outputTokens: 40, reasoningTokens: 30 } },
      { text: 'Gemini answer.', usage: { inputTokens: 150, cachedInputTokens: 100, outputTokens: 5 } },
      { text: 'Streamed from Gemini.', deltaSize: 5 },
    );
    const model = createModelFromProfile(set, 'flash', { env: { GEMINI_KEY: key } });
    const result = await createHarness({ model, tools }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Gemini answer.' } });
    expect(result.usage).toMatchObject({ totalInputTokens: 250, totalCachedInputTokens: 100, totalOutputTokens: 45, totalReasoningTokens: 30 });
    expect(result.usage.totalCostUnits).toBeGreaterThan(0);
    expect(result.metadata?.modelReceipts).toEqual([
      expect.objectContaining({ profileId: 'flash', protocol: 'gemini-generate-content', model: 'gemini-2.5-flash' }),
      expect.objectContaining({ profileId: 'flash', cachedInputTokens: 100 }),
    ]);
    for (const request of gemini.requests) {
      expect(request.headers['x-goog-api-key']).toBe(key);
      expect(`${request.path}${request.search ?? ''}`).not.toContain(key);
    }
    expect(gemini.requests[0]!.body).toMatchObject({ generationConfig: { maxOutputTokens: 256 } });
    const stream = createHarness({ model }).streamTurn(createTurnInput());
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text_delta') deltas.push(event.text);
    expect(deltas.join('')).toBe('Streamed from Gemini.');
    expect(await stream.result).toMatchObject({ outcome: 'completed' });
  });

  it('fails a step without the secret before sending anything, naming the variable only', async () => {
    const { openai, set } = await setup();
    const result = await createHarness({ model: createModelFromProfile(set, 'router', { env: {} }) }).runTurn(createTurnInput());
    expect(result.outcome).toBe('failed');
    expect(['provider_error', 'missing_api_key']).toContain(result.metadata?.error?.code);
    expect(result.metadata?.error?.message).toContain('ROUTER_KEY');
    expect(openai.requests).toHaveLength(0);
  });

  it('ends input_too_large before any call when the request exceeds the profile maxInputBytes (default 1 MiB)', async () => {
    const { ollama, set } = await setup();
    const big = createTurnInput({ text: 'x'.repeat(1024 * 1024) });
    const result = await createHarness({ model: createModelFromProfile(set, 'local') }).runTurn(big);
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'model_invalid_response', metadata: { error: { code: 'input_too_large', retryable: false } } });
    expect(result.metadata?.error?.message).toMatch(/would be \d+ bytes, more than maxInputBytes \(1048576\)/);
    const small = await setup({ maxInputBytes: 100 });
    const output = await createModelFromProfile(small.set, 'local').nextStep(createModelInput());
    expect(output).toMatchObject({ type: 'invalid', kind: 'input_too_large', metadata: { receipt: { profileId: 'local-model' } } });
    expect((output.metadata?.receipt as { requestBytes: number }).requestBytes).toBeGreaterThan(100);
    expect(ollama.requests).toHaveLength(0);
    expect(small.ollama.requests).toHaveLength(0);
  });

  it('sends sampling as each protocol names it: temperature replacing the profile\'s, top_p where the protocol puts it', async () => {
    const { ollama, openai, anthropic } = await setup();
    const responses = await track(createFakeOpenAIResponsesServer());
    const gemini = await track(createFakeGeminiServer());
    const set = parseProviderProfiles({
      profiles: [
        { id: 'o', provider: 'ollama', protocol: 'ollama-chat', model: 'm', endpoint: ollama.url, authMode: 'none', temperature: 1.5 },
        { id: 'c', provider: 'x', protocol: 'openai-chat', model: 'm', endpoint: openai.url, authMode: 'none', temperature: 1.5 },
        { id: 'a', provider: 'x', protocol: 'anthropic-messages', model: 'm', endpoint: anthropic.url, authMode: 'api-key', secretSource: { kind: 'environment', name: 'ANTHROPIC_KEY' }, maxOutputTokens: 64, temperature: 1.5 },
        { id: 'r', provider: 'x', protocol: 'openai-responses', model: 'm', endpoint: responses.url, authMode: 'none', temperature: 1.5 },
        { id: 'g', provider: 'x', protocol: 'gemini-generate-content', model: 'm', endpoint: gemini.url, authMode: 'api-key', secretSource: { kind: 'environment', name: 'ANTHROPIC_KEY' }, temperature: 1.5 },
      ],
    });
    for (const server of [ollama, openai, anthropic, responses, gemini]) server.enqueue({ text: 'ok' });
    const sampling = { temperature: 0.2, topP: 0.9 };
    for (const id of ['o', 'c', 'a', 'r', 'g']) {
      expect(await createModelFromProfile(set, id, { sampling, env }).nextStep(createModelInput())).toMatchObject({ type: 'final_answer', text: 'ok' });
    }
    expect(ollama.requests[0]!.body).toMatchObject({ options: { temperature: 0.2, top_p: 0.9 } });
    for (const server of [openai, anthropic, responses]) expect(server.requests[0]!.body).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    expect(gemini.requests[0]!.body).toMatchObject({ generationConfig: { temperature: 0.2, topP: 0.9 } });

    openai.enqueue({ text: 'ok' });
    await createModelFromProfile(set, 'c', { sampling: { topP: 0.5 } }).nextStep(createModelInput());
    expect(openai.requests[1]!.body).toMatchObject({ temperature: 1.5, top_p: 0.5 });
    for (const bad of [{ temperature: 2.5 }, { topP: -0.1 }, { topP: Number.NaN }, { temperature: '1' }]) {
      expect(() => createModelFromProfile(set, 'c', { sampling: bad as never })).toThrow(HarnessConfigError);
    }
  });

  it('refuses unknown names', async () => {
    const { set } = await setup();
    expect(() => createModelFromProfile(set, 'missing')).toThrow(HarnessConfigError);
  });
});
