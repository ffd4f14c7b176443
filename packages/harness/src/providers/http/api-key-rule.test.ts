import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HarnessModelAdapter } from '../../core/types/model.js';
import { createFakeAnthropicServer } from '../../testing/node/create-fake-anthropic-server.js';
import { createFakeGeminiServer } from '../../testing/node/create-fake-gemini-server.js';
import { createFakeOllamaServer } from '../../testing/node/create-fake-ollama-server.js';
import { createFakeOpenAICompatibleServer } from '../../testing/node/create-fake-openai-compatible-server.js';
import { createFakeOpenAIResponsesServer } from '../../testing/node/create-fake-openai-responses-server.js';
import type { FakeModelServer } from '../../testing/node/fake-model-server-types.js';
import { createModelInput } from '../__fixtures__/create-model-input.js';
import { createAnthropicModel } from '../anthropic/create-anthropic-model.js';
import { createGeminiModel } from '../gemini/create-gemini-model.js';
import { createOllamaModel } from '../ollama/create-ollama-model.js';
import { createOpenAICompatibleModel } from '../openai-compatible/create-openai-compatible-model.js';
import { createOpenAIResponsesModel } from '../openai-responses/create-openai-responses-model.js';
import { OpenRouterExecutionAdapter } from '../openrouter/openrouter-execution-adapter.js';
import { OpenRouterModelAdapter } from '../openrouter/openrouter-model-adapter.js';
import { createModelFromProfile } from '../profiles/create-model-from-profile.js';
import { parseProviderProfiles } from '../profiles/parse-provider-profiles.js';
import type { HttpProviderOptions } from './http-provider-options.js';
import type { FetchFunction } from './post-json.js';
import { resolveApiKey } from './resolve-api-key.js';

/**
 * The one API-key rule, provider by provider, against loopback servers: an explicit `apiKey` wins;
 * without one, a request to the provider's own host reads its documented variable; no other host
 * ever gets it; `null` sends no key. "The provider's own host" is reached through a `fetch` that
 * sends the request for `https://<own host>/…` to the loopback server with its headers unchanged,
 * and records the URL the provider asked for.
 */

type Options = HttpProviderOptions & { baseUrl?: string };

interface Case {
  name: string;
  variable: string;
  /** The provider's default base URL (its own host). */
  ownBase: string;
  start(): Promise<FakeModelServer>;
  make(options: Options): HarnessModelAdapter | OpenRouterExecutionAdapter;
  /** The key as the server received it, or `undefined`. */
  received(headers: Record<string, string>): string | undefined;
  /** Whether `baseUrl` is omitted to mean the own host (the factory's default), or must be given. */
  defaultsToOwnHost: boolean;
}

const bearer = (headers: Record<string, string>) => headers.authorization?.replace(/^Bearer /, '');

const cases: Case[] = [
  {
    name: 'createOpenAICompatibleModel',
    variable: 'OPENAI_API_KEY',
    ownBase: 'https://api.openai.com/v1',
    start: () => createFakeOpenAICompatibleServer(),
    make: (options) => createOpenAICompatibleModel({ baseUrl: options.baseUrl ?? 'https://api.openai.com/v1', model: 'gpt-5-mini', ...options }),
    received: bearer,
    defaultsToOwnHost: false,
  },
  {
    name: 'createOpenAIResponsesModel',
    variable: 'OPENAI_API_KEY',
    ownBase: 'https://api.openai.com/v1',
    start: () => createFakeOpenAIResponsesServer(),
    make: (options) => createOpenAIResponsesModel({ model: 'gpt-5-mini', ...options }),
    received: bearer,
    defaultsToOwnHost: true,
  },
  {
    name: 'createAnthropicModel',
    variable: 'ANTHROPIC_API_KEY',
    ownBase: 'https://api.anthropic.com/v1',
    start: () => createFakeAnthropicServer(),
    make: (options) => createAnthropicModel({ model: 'claude-sonnet-4-5', maxTokens: 100, ...options }),
    received: (headers) => headers['x-api-key'],
    defaultsToOwnHost: true,
  },
  {
    name: 'createGeminiModel',
    variable: 'GEMINI_API_KEY',
    ownBase: 'https://generativelanguage.googleapis.com/v1beta',
    start: () => createFakeGeminiServer(),
    make: (options) => createGeminiModel({ model: 'gemini-2.5-flash', ...options }),
    received: (headers) => headers['x-goog-api-key'],
    defaultsToOwnHost: true,
  },
  {
    name: 'createOllamaModel',
    variable: 'OLLAMA_API_KEY',
    ownBase: 'https://ollama.com',
    start: () => createFakeOllamaServer(),
    make: (options) => createOllamaModel({ model: 'qwen3:8b', ...options }),
    received: bearer,
    defaultsToOwnHost: false,
  },
  {
    name: 'OpenRouterModelAdapter',
    variable: 'OPENROUTER_API_KEY',
    ownBase: 'https://openrouter.ai/api/v1',
    start: () => createFakeOpenAICompatibleServer(),
    make: (options) => new OpenRouterModelAdapter(options),
    received: bearer,
    defaultsToOwnHost: true,
  },
  {
    name: 'OpenRouterExecutionAdapter',
    variable: 'OPENROUTER_API_KEY',
    ownBase: 'https://openrouter.ai/api/v1',
    start: () => createFakeOpenAICompatibleServer(),
    make: (options) => new OpenRouterExecutionAdapter(options),
    received: bearer,
    defaultsToOwnHost: true,
  },
];

/** A `fetch` that delivers requests for `ownBase` to the loopback server, recording what was asked for. */
function fetchVia(server: FakeModelServer, ownBase: string): { fetch: FetchFunction; asked: string[] } {
  const asked: string[] = [];
  const fetchFn: FetchFunction = (input, init) => {
    asked.push(input);
    for (const base of [ownBase, ...lookalikes(ownBase)]) {
      if (input.startsWith(`${base}/`)) return fetch(`${server.url}${input.slice(base.length)}`, init);
    }
    return Promise.reject(new Error(`unexpected URL ${input}`));
  };
  return { fetch: fetchFn, asked };
}

/** Hosts that look like the provider's but are not it: a longer name, another port, plain http. */
function lookalikes(ownBase: string): string[] {
  const url = new URL(ownBase);
  const path = url.pathname === '/' ? '' : url.pathname;
  return [`https://${url.hostname}.example.net${path}`, `https://${url.hostname}:8443${path}`];
}

async function callOnce(adapter: HarnessModelAdapter | OpenRouterExecutionAdapter): Promise<unknown> {
  if (adapter instanceof OpenRouterExecutionAdapter) {
    return adapter.execute({
      assistantId: 'a',
      turnId: 't',
      message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00.000Z' },
      instructions: { systemPrompt: 's' },
    });
  }
  return adapter.nextStep(createModelInput());
}

const ENV_KEY = 'env-key-0123456789';
const PROCESS_KEY = 'process-key-0123456789';
const EXPLICIT_KEY = 'explicit-key-0123456789';

describe.each(cases)('the API-key rule: $name', (provider) => {
  let server: FakeModelServer;
  const saved = process.env[provider.variable];

  beforeAll(async () => {
    server = await provider.start();
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[provider.variable];
    else process.env[provider.variable] = saved;
  });
  afterAll(async () => {
    await server.close();
  });

  const ownHost = (options: Options): Options => (provider.defaultsToOwnHost ? options : { baseUrl: provider.ownBase, ...options });
  const lastKey = () => provider.received(server.requests.at(-1)!.headers);

  it('an explicit apiKey wins over the variable, on the provider’s own host', async () => {
    process.env[provider.variable] = PROCESS_KEY;
    const via = fetchVia(server, provider.ownBase);
    server.enqueue({ text: 'ok' });
    await callOnce(provider.make(ownHost({ apiKey: EXPLICIT_KEY, env: { [provider.variable]: ENV_KEY }, fetch: via.fetch })));
    expect(via.asked[0]!.startsWith(`${provider.ownBase}/`)).toBe(true);
    expect(lastKey()).toBe(EXPLICIT_KEY);
  });

  it('without apiKey, the provider’s own host gets its documented variable: the env option first, then process.env', async () => {
    const via = fetchVia(server, provider.ownBase);
    process.env[provider.variable] = PROCESS_KEY;
    server.enqueue({ text: 'ok' }, { text: 'ok' });
    await callOnce(provider.make(ownHost({ env: { [provider.variable]: ENV_KEY }, fetch: via.fetch })));
    expect(lastKey()).toBe(ENV_KEY);
    await callOnce(provider.make(ownHost({ fetch: via.fetch })));
    expect(lastKey()).toBe(PROCESS_KEY);
  });

  it('without apiKey and with the variable unset, the own host gets no request: the step fails naming the variable', async () => {
    delete process.env[provider.variable];
    const via = fetchVia(server, provider.ownBase);
    const before = server.requests.length;
    const outcome = await callOnce(provider.make(ownHost({ env: {}, fetch: via.fetch })));
    expect(JSON.stringify(outcome)).toContain(provider.variable);
    expect(server.requests.length).toBe(before);
  });

  it('the variable never reaches another host: loopback, a longer host name, another port', async () => {
    process.env[provider.variable] = PROCESS_KEY;
    const env = { [provider.variable]: ENV_KEY };
    server.enqueue({ text: 'ok' });
    await callOnce(provider.make({ baseUrl: server.url, env }));
    expect(lastKey()).toBeUndefined();
    for (const base of lookalikes(provider.ownBase)) {
      const via = fetchVia(server, provider.ownBase);
      server.enqueue({ text: 'ok' });
      await callOnce(provider.make({ baseUrl: base, env, fetch: via.fetch }));
      expect(via.asked[0]!.startsWith(`${base}/`)).toBe(true);
      expect(lastKey()).toBeUndefined();
    }
  });

  it('apiKey: null sends no key, even to the provider’s own host with the variable set', async () => {
    process.env[provider.variable] = PROCESS_KEY;
    const via = fetchVia(server, provider.ownBase);
    server.enqueue({ text: 'ok' });
    await callOnce(provider.make(ownHost({ apiKey: null, env: { [provider.variable]: ENV_KEY }, fetch: via.fetch })));
    expect(lastKey()).toBeUndefined();
  });
});

describe('the API-key rule: provider profiles', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await createFakeOpenAICompatibleServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const set = parseProviderProfiles({
    profiles: [
      { id: 'named', provider: 'openai', protocol: 'openai-chat', model: 'm', endpoint: 'https://api.openai.com/v1', authMode: 'api-key', secretSource: { kind: 'environment', name: 'MY_TEAM_KEY' } },
      { id: 'none', provider: 'openai', protocol: 'openai-chat', model: 'm', endpoint: 'https://api.openai.com/v1', authMode: 'none' },
    ],
  });

  it('a profile’s secretSource is its key; authMode "none" sends none, even to the provider’s own host', async () => {
    const via = fetchVia(server, 'https://api.openai.com/v1');
    const env = { MY_TEAM_KEY: EXPLICIT_KEY, OPENAI_API_KEY: ENV_KEY };
    server.enqueue({ text: 'ok' }, { text: 'ok' });
    await createModelFromProfile(set, 'named', { env, fetch: via.fetch }).nextStep(createModelInput());
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${EXPLICIT_KEY}`);
    await createModelFromProfile(set, 'none', { env, fetch: via.fetch }).nextStep(createModelInput());
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
  });
});

describe('the API-key rule where there is no process (Workers)', () => {
  it('reads the env option, and nothing else, when globalThis.process does not exist', () => {
    const global = globalThis as { process?: unknown };
    const saved = global.process;
    try {
      global.process = undefined;
      expect(resolveApiKey({ env: 'OPENAI_API_KEY' }, { OPENAI_API_KEY: ENV_KEY })).toBe(ENV_KEY);
      expect(resolveApiKey({ env: 'OPENAI_API_KEY' })).toBeUndefined();
    } finally {
      global.process = saved;
    }
  });
});
