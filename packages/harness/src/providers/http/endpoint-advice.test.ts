// Every endpoint error that suggests a fix is followed here: the suggestion is read out of the
// message, applied where the message was given (code options or a profile), and must then work.
// No request leaves the process: the models get a `fetch` that answers itself.
import { describe, expect, it } from 'vitest';
import {
  createAnthropicModel,
  createGeminiModel,
  createHarness,
  createModelFromProfile,
  createOllamaModel,
  createOpenAICompatibleModel,
  createOpenAIResponsesModel,
  createOpenRouterModelAdapter,
  HarnessConfigError,
  OpenRouterExecutionAdapter,
  parseProviderProfiles,
  type HttpProviderOptions,
} from '../../index.js';
import { createTurnInput } from '../../testing/index.js';

/** The error `build` throws (it must throw a HarnessConfigError). */
function errorOf(build: () => unknown): HarnessConfigError {
  try {
    build();
  } catch (error) {
    expect(HarnessConfigError.isInstance(error)).toBe(true);
    return error as HarnessConfigError;
  }
  throw new Error('expected a HarnessConfigError');
}

/** The `allowInsecureHttp: [...]` a code-options message suggests, as a value. */
function suggestedHosts(message: string): string[] {
  const match = /set allowInsecureHttp: (\[.*?\])(?=[ .]|$)/.exec(message);
  expect(match, message).not.toBeNull();
  return JSON.parse(match![1]!.replaceAll("'", '"')) as string[];
}

const answered: string[] = [];
const selfAnsweringFetch: typeof fetch = async (url) => {
  answered.push(String(url));
  return new Response(
    JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }] }),
    { status: 200, headers: { 'content-type': 'application/json' } },
  );
};

const common = { apiKey: 'test-key-0123456789', fetch: selfAnsweringFetch } satisfies HttpProviderOptions;
const codeOptionProviders: Record<string, (baseUrl: string, options: HttpProviderOptions) => unknown> = {
  createOpenAICompatibleModel: (baseUrl, options) => createOpenAICompatibleModel({ ...common, ...options, baseUrl, model: 'm' }),
  createOpenRouterModelAdapter: (baseUrl, options) => createOpenRouterModelAdapter({ ...common, ...options, baseUrl }),
  OpenRouterExecutionAdapter: (baseUrl, options) => new OpenRouterExecutionAdapter({ ...common, ...options, baseUrl }),
  createOpenAIResponsesModel: (baseUrl, options) => createOpenAIResponsesModel({ ...common, ...options, baseUrl, model: 'm' }),
  createAnthropicModel: (baseUrl, options) => createAnthropicModel({ ...common, ...options, baseUrl, model: 'm', maxTokens: 100 }),
  createGeminiModel: (baseUrl, options) => createGeminiModel({ ...common, ...options, baseUrl, model: 'm' }),
  createOllamaModel: (baseUrl, options) => createOllamaModel({ ...common, ...options, baseUrl, model: 'm' }),
};

// A LAN box, a compose service, an IPv6 ULA, an internationalised name (punycode in the URL).
const NON_LOOPBACK = ['http://192.168.1.20:11434/v1', 'http://ollama:11434/v1', 'http://[fd00::1]:11434/v1', 'http://bücher.example/v1'];

describe('endpoint errors suggest fixes that work where they are given', () => {
  describe.each(Object.entries(codeOptionProviders))('%s (code options)', (_name, build) => {
    it.each(NON_LOOPBACK)('plain http to %s: the suggested allowInsecureHttp list is accepted', (baseUrl) => {
      const error = errorOf(() => build(baseUrl, {}));
      expect(error.field).toBe('baseUrl');
      const hosts = suggestedHosts(error.message);
      expect(hosts).toEqual([new URL(baseUrl).hostname]);
      expect(() => build(baseUrl, { allowInsecureHttp: hosts })).not.toThrow();
      expect(() => build(baseUrl, { allowInsecureHttp: true })).not.toThrow();
    });

    it('a URL without a scheme: the message quotes nothing of it and says to put http:// in front, which works on loopback', () => {
      const error = errorOf(() => build('localhost:11434/v1', {}));
      expect(error.message).toContain('put https:// in front (http:// on a loopback host such as localhost)');
      expect(error.message).not.toMatch(/localhost:\/\/|allowInsecureHttp/);
      expect(() => build('http://localhost:11434/v1', {})).not.toThrow();
    });
  });

  it('the suggested list is what the request then goes through: a turn reaches the host', async () => {
    const baseUrl = 'http://192.168.1.20:11434/v1';
    const hosts = suggestedHosts(errorOf(() => createOpenAICompatibleModel({ ...common, baseUrl, model: 'm' })).message);
    answered.length = 0;
    const result = await createHarness({ model: createOpenAICompatibleModel({ ...common, baseUrl, model: 'm', allowInsecureHttp: hosts }) }).runTurn(createTurnInput());
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'hi' } });
    expect(answered).toEqual(['http://192.168.1.20:11434/v1/chat/completions']);
  });

  describe('a provider profile', () => {
    const profile = (endpoint: string, extra: Record<string, unknown> = {}) => ({
      profiles: [{ id: 'lan', provider: 'ollama', protocol: 'openai-chat', model: 'qwen3:8b', endpoint, authMode: 'none', ...extra }],
    });

    it.each(NON_LOOPBACK)('plain http to %s: the suggested "allowInsecureHttp": true is accepted, and the profile works', async (endpoint) => {
      const error = errorOf(() => parseProviderProfiles(profile(endpoint)));
      expect(error.field).toBe('profiles[0].endpoint');
      expect(error.message).not.toContain('allowInsecureHttp: [');
      const match = /set ("allowInsecureHttp": true) in it/.exec(error.message);
      expect(match, error.message).not.toBeNull();
      const fix = JSON.parse(`{${match![1]!}}`) as Record<string, unknown>;
      const set = parseProviderProfiles(profile(endpoint, fix));
      answered.length = 0;
      const result = await createHarness({ model: createModelFromProfile(set, 'lan', { fetch: selfAnsweringFetch }) }).runTurn(createTurnInput());
      expect(result.outcome).toBe('completed');
      expect(answered).toEqual([`${endpoint}/chat/completions`.replace('bücher', 'xn--bcher-kva')]);
    });

    it('a host list, as code options take it, is refused there, and is never what a profile error suggests', () => {
      expect(() => parseProviderProfiles(profile('http://192.168.1.20:11434/v1', { allowInsecureHttp: ['192.168.1.20'] }))).toThrow(/allowInsecureHttp/);
    });

    it('an endpoint without a scheme: put http:// in front, and the profile is accepted', () => {
      const error = errorOf(() => parseProviderProfiles(profile('localhost:11434/v1')));
      expect(error.message).toContain('put https:// in front (http:// on a loopback host such as localhost)');
      expect(error.message).not.toMatch(/localhost:\/\/|allowInsecureHttp/);
      expect(() => parseProviderProfiles(profile('http://localhost:11434/v1'))).not.toThrow();
    });
  });

  it('allowInsecureHttp takes hosts as a URL writes them, normalised the same way, and refuses anything else', () => {
    const accepts = (host: string, baseUrl: string) =>
      expect(() => createOpenAICompatibleModel({ ...common, baseUrl, model: 'm', allowInsecureHttp: [host] })).not.toThrow();
    accepts('OLLAMA', 'http://ollama/v1');
    accepts('[FD00:0:0::1]', 'http://[fd00::1]/v1');
    accepts('bücher.example', 'http://xn--bcher-kva.example/v1');
    for (const bad of ['', 'ollama:11434', 'ollama/v1', 'user@ollama', 'fd00::1', 'a b', 'ollama?x']) {
      expect(() => createOpenAICompatibleModel({ ...common, baseUrl: 'https://x/v1', model: 'm', allowInsecureHttp: [bad] }), bad).toThrow(
        expect.objectContaining({ field: 'allowInsecureHttp' }),
      );
    }
  });
});
