import { describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { parseProviderProfiles } from './parse-provider-profiles.js';

const local = { id: 'local-model', provider: 'ollama', protocol: 'ollama-chat', model: 'qwen3:8b', endpoint: 'http://localhost:11434', authMode: 'none' };
const router = {
  id: 'router',
  provider: 'openrouter',
  protocol: 'openai-chat',
  model: 'openai/gpt-5-mini',
  endpoint: 'https://openrouter.ai/api/v1',
  authMode: 'api-key',
  secretSource: { kind: 'environment', name: 'OPENROUTER_API_KEY' },
  pricing: { inputPerMillionTokens: 0.25, outputPerMillionTokens: 2 },
};
const issueExample = { profiles: [local, router], aliases: { local: 'local-model' } };

function thrownBy(run: () => unknown): HarnessConfigError {
  try {
    run();
  } catch (error) {
    if (HarnessConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a HarnessConfigError');
}

describe('parseProviderProfiles', () => {
  it('parses the example from the issue, with defaults applied and everything frozen', () => {
    const set = parseProviderProfiles(issueExample);
    expect(set.profiles).toHaveLength(2);
    expect(set.profiles[0]).toEqual({ ...local, allowInsecureHttp: false, maxInputBytes: 1024 * 1024 });
    expect(set.profiles[1]).toMatchObject({ id: 'router', protocol: 'openai-chat', secretSource: { kind: 'environment', name: 'OPENROUTER_API_KEY' } });
    expect(set.aliases.get('local')).toBe('local-model');
    expect(Object.isFrozen(set) && Object.isFrozen(set.profiles) && Object.isFrozen(set.profiles[1])).toBe(true);
  });

  it('accepts JSON text and the PascalCase protocol names, normalizing them', () => {
    const names = { OpenAiChatCompletions: 'openai-chat', OpenAiResponses: 'openai-responses', AnthropicMessages: 'anthropic-messages', GeminiGenerateContent: 'gemini-generate-content', OllamaChat: 'ollama-chat' };
    const profiles = Object.keys(names).map((protocol, index) => ({
      ...router,
      id: `p${index}`,
      protocol,
      ...(protocol === 'AnthropicMessages' ? { maxOutputTokens: 1024 } : {}),
    }));
    const set = parseProviderProfiles(JSON.stringify({ profiles }));
    expect(set.profiles.map((profile) => profile.protocol)).toEqual(Object.values(names));
  });

  it('accepts http on a LAN host only with allowInsecureHttp, and keys such as __proto__ as aliases', () => {
    const lan = { ...local, endpoint: 'http://gpu-box.lan:11434' };
    expect(thrownBy(() => parseProviderProfiles({ profiles: [lan] })).field).toBe('profiles[0].endpoint');
    expect(parseProviderProfiles({ profiles: [{ ...lan, allowInsecureHttp: true }] }).profiles[0]!.allowInsecureHttp).toBe(true);
    const set = parseProviderProfiles(JSON.parse('{"profiles":[{"id":"a","provider":"o","protocol":"ollama-chat","model":"m","endpoint":"http://127.0.0.1:1","authMode":"none"}],"aliases":{"__proto__":"a","constructor":"a"}}'));
    expect(set.aliases.get('__proto__')).toBe('a');
    expect(set.aliases.get('constructor')).toBe('a');
  });

  it.each<[string, unknown, string, RegExp]>([
    ['not JSON', '{"profiles": [', 'profiles', /not valid JSON/],
    ['no profiles', {}, 'profiles', /profiles/],
    ['empty profiles', { profiles: [] }, 'profiles', /at least 1/],
    ['unknown top-level key', { profiles: [local], extra: 1 }, 'profiles', /unknown keys extra/],
    ['a key in the profile', { profiles: [{ ...router, apiKey: 'sk-live-123' }] }, 'profiles[0].apiKey', /Profile "router" \(profiles\[0\]\).*key never goes into a profile/],
    ['an unknown field', { profiles: [{ ...local, modle: 'x' }] }, 'profiles[0]', /Profile "local-model".*unknown keys modle/],
    ['a missing model', { profiles: [{ ...local, model: undefined }] }, 'profiles[0].model', /Profile "local-model".*model/],
    ['a bad id', { profiles: [{ ...local, id: ' spaced id' }] }, 'profiles[0].id', /must be 1-128/],
    ['a duplicate id', { profiles: [local, local] }, 'profiles[1].id', /Profile "local-model" \(profiles\[1\]\).*earlier profile/],
    ['an unknown protocol', { profiles: [{ ...local, protocol: 'openai' }] }, 'profiles[0].protocol', /"openai" is not one of openai-chat, .*OllamaChat/],
    ['a wrongly cased protocol', { profiles: [{ ...local, protocol: 'ollamachat' }] }, 'profiles[0].protocol', /not one of/],
    ['plain http off loopback', { profiles: [{ ...router, endpoint: 'http://openrouter.ai/api/v1' }] }, 'profiles[0].endpoint', /Profile "router".*https:/],
    ['credentials in the endpoint', { profiles: [{ ...router, endpoint: 'https://user:pw@openrouter.ai/api/v1' }] }, 'profiles[0].endpoint', /credentials/],
    ['a query in the endpoint', { profiles: [{ ...router, endpoint: 'https://openrouter.ai/api/v1?key=sk-1' }] }, 'profiles[0].endpoint', /query string/],
    ['api-key without secretSource', { profiles: [{ ...router, secretSource: undefined }] }, 'profiles[0].secretSource', /needs secretSource/],
    ['secretSource with authMode none', { profiles: [{ ...local, secretSource: { kind: 'environment', name: 'X' } }] }, 'profiles[0].secretSource', /authMode is "none"/],
    ['a secret of another kind', { profiles: [{ ...router, secretSource: { kind: 'literal', value: 'sk-1' } }] }, 'profiles[0].secretSource.kind', /environment/],
    ['a bad variable name', { profiles: [{ ...router, secretSource: { kind: 'environment', name: 'MY-KEY' } }] }, 'profiles[0].secretSource.name', /variable name/],
    ['an unknown authMode', { profiles: [{ ...router, authMode: 'oauth' }] }, 'profiles[0].authMode', /authMode/],
    ['maxInputBytes over 16 MiB', { profiles: [{ ...local, maxInputBytes: 16 * 1024 * 1024 + 1 }] }, 'profiles[0].maxInputBytes', /at most 16777216/],
    ['maxInputBytes of 0', { profiles: [{ ...local, maxInputBytes: 0 }] }, 'profiles[0].maxInputBytes', /at least 1/],
    ['fractional maxInputBytes', { profiles: [{ ...local, maxInputBytes: 1.5 }] }, 'profiles[0].maxInputBytes', /maxInputBytes/],
    ['negative pricing', { profiles: [{ ...router, pricing: { inputPerMillionTokens: -1, outputPerMillionTokens: 2 } }] }, 'profiles[0].pricing.inputPerMillionTokens', /Profile "router".*at least 0/],
    ['pricing with a typo', { profiles: [{ ...router, pricing: { inputPerMillionTokens: 1, outputPerMilionTokens: 2 } }] }, 'profiles[0].pricing.outputPerMillionTokens', /unknown keys outputPerMilionTokens/],
    ['contextWindow of 0', { profiles: [{ ...local, contextWindow: 0 }] }, 'profiles[0].contextWindow', /at least 1/],
    ['fractional contextWindow', { profiles: [{ ...local, contextWindow: 8192.5 }] }, 'profiles[0].contextWindow', /contextWindow/],
    ['anthropic without maxOutputTokens', { profiles: [{ ...router, protocol: 'anthropic-messages' }] }, 'profiles[0].maxOutputTokens', /needs maxOutputTokens/],
    ['gemini without a key', { profiles: [{ ...local, protocol: 'gemini-generate-content', endpoint: 'https://generativelanguage.googleapis.com/v1beta' }] }, 'profiles[0].authMode', /needs authMode "api-key"/],
    ['namedToolChoice off openai-chat', { profiles: [{ ...local, namedToolChoice: 'required' }] }, 'profiles[0].namedToolChoice', /applies only to the openai-chat protocol/],
    ['an unknown namedToolChoice', { profiles: [{ ...router, namedToolChoice: 'tool' }] }, 'profiles[0].namedToolChoice', /namedToolChoice/],
    ['an alias to nowhere', { profiles: [local], aliases: { fast: 'missing' } }, 'aliases.fast', /not a profile id/],
    ['an alias that is an id', { profiles: [local], aliases: { 'local-model': 'local-model' } }, 'aliases.local-model', /also a profile id/],
    ['an alias to a non-string', { profiles: [local], aliases: { fast: 1 } }, 'aliases.fast', /must name a profile id/],
    ['aliases as an array', { profiles: [local], aliases: ['local-model'] }, 'aliases', /aliases must be an object/],
    ['a profile that is not an object', { profiles: ['local-model'] }, 'profiles[0]', /profiles\[0\]/],
    ['an id with a line break', { profiles: [{ ...local, id: 'a\nProfile "x" is fine' }] }, 'profiles[0].id', /^Profile "a\\nProfile \\"x\\" is fine" \(profiles\[0\]\)/],
  ])('refuses %s with a HarnessConfigError naming the field', (_name, input, field, message) => {
    const error = thrownBy(() => parseProviderProfiles(input));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });

  it('never echoes a key that was put into a profile', () => {
    const error = thrownBy(() => parseProviderProfiles({ profiles: [{ ...router, token: 'sk-or-v1-verysecretvalue' }] }));
    expect(error.message).not.toContain('sk-or-v1-verysecretvalue');
  });

  it('refuses hostile values without throwing anything but a HarnessConfigError', () => {
    const throwing = { get profiles(): unknown[] { throw new Error('boom'); } };
    expect(thrownBy(() => parseProviderProfiles(throwing)).message).toMatch(/cannot be read/);
    let deep: unknown = local;
    for (let index = 0; index < 100; index += 1) deep = [deep];
    expect(thrownBy(() => parseProviderProfiles({ profiles: deep })).message).toMatch(/cannot be read/);
    expect(thrownBy(() => parseProviderProfiles(undefined)).field).toBe('profiles');
    expect(thrownBy(() => parseProviderProfiles({ profiles: [{ ...local, id: 'x'.repeat(5000) }] })).message.length).toBeLessThan(1000);
  });
});
