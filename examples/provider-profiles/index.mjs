// Runs every profile of profiles.json through a streamed tool turn. A profile whose key variable is
// set (OPENROUTER_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY) runs against its real endpoint; a
// keyless local profile (Ollama) runs for real with --real. Every other profile runs offline: the
// example starts the bundled fake server of its protocol on loopback and points that profile there.
// `node index.mjs [profile-or-alias …] [--real]`; PROFILES_FILE=path reads another profile file.
import { readFile } from 'node:fs/promises';
import { createHarness, createModelFromProfile, inspectProviderProfile, parseProviderProfiles } from '@agent-assistant/harness';
import {
  createFakeAnthropicServer,
  createFakeGeminiServer,
  createFakeOllamaServer,
  createFakeOpenAICompatibleServer,
  createFakeOpenAIResponsesServer,
} from '@agent-assistant/harness/testing/node';

const file = JSON.parse(await readFile(process.env.PROFILES_FILE ?? new URL('./profiles.json', import.meta.url), 'utf8'));
const profiles = parseProviderProfiles(file); // throws HarnessConfigError naming the profile and field
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const ids = wanted.length > 0 ? wanted : profiles.profiles.map((profile) => profile.id);

console.log('Profiles (checked without calling anyone):');
for (const profile of profiles.profiles) {
  const inspection = inspectProviderProfile(profiles, profile.id);
  const secret = inspection.secret === undefined ? 'no key' : `${inspection.secret.name} ${inspection.secret.present ? 'set' : 'not set'}`;
  console.log(`  ${profile.id.padEnd(12)} ${inspection.protocol.padEnd(24)} ${inspection.model.padEnd(20)} ${inspection.endpointHost.padEnd(22)} ${secret} → ${inspection.runnable}`);
}

const fakeServers = {
  'openai-chat': createFakeOpenAICompatibleServer,
  'openai-responses': createFakeOpenAIResponsesServer,
  'anthropic-messages': createFakeAnthropicServer,
  'ollama-chat': createFakeOllamaServer,
  'gemini-generate-content': createFakeGeminiServer,
};
const script = [
  { text: 'Let me look that up.', toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }], usage: { inputTokens: 420, cachedInputTokens: 256, outputTokens: 38 } },
  { text: 'It is sunny and 21°C in Oslo.', usage: { inputTokens: 480, cachedInputTokens: 384, outputTokens: 12 } },
];
const tools = {
  listAvailable: () => [
    {
      name: 'lookup_weather',
      description: 'Current weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
  execute: async (call) => ({ callId: call.id, toolName: call.name, status: 'success', output: `sunny, 21°C in ${call.input.city}` }),
};

const servers = [];
try {
  for (const id of ids) {
    const inspection = inspectProviderProfile(profiles, id);
    const real = inspection.authMode === 'api-key' ? inspection.secret.present : process.argv.includes('--real');
    let set = profiles;
    let env;
    if (!real) {
      const startFake = fakeServers[inspection.protocol];
      if (startFake === undefined) {
        console.log(`\n[${id}] no fake server for ${inspection.protocol} in this example; skipped.`);
        continue;
      }
      const server = await startFake({ replies: script });
      servers.push(server);
      // The same file, with this profile pointed at the loopback fake and a stand-in key.
      set = parseProviderProfiles({
        ...file,
        profiles: file.profiles.map((profile) => (profile.id === inspection.id ? { ...profile, endpoint: server.url } : profile)),
      });
      if (inspection.secret !== undefined) env = { [inspection.secret.name]: 'fake-key-for-the-local-server' };
    }
    console.log(`\n[${id}] ${real ? `live: ${inspection.endpointHost}` : 'offline: fake server'} — ${inspection.protocol} / ${inspection.model}`);
    const model = createModelFromProfile(set, id, { env });
    const stream = createHarness({ model, tools, limits: { budgetLimit: 0.05 } }).streamTurn({
      assistantId: 'example',
      turnId: `turn-${inspection.id}`,
      message: { id: 'm1', text: 'What is the weather in Oslo?', receivedAt: new Date().toISOString() },
      instructions: { systemPrompt: 'You are a concise weather assistant. Use the tool.' },
    });
    for await (const event of stream) {
      if (event.type === 'text_delta') process.stdout.write(event.text);
      if (event.type === 'tool_started') process.stdout.write(`\n  [tool] ${event.call.name}(${JSON.stringify(event.call.input)})\n`);
    }
    const result = await stream.result;
    const { totalInputTokens, totalCachedInputTokens, totalOutputTokens, totalCostUnits } = result.usage;
    console.log(`\n  → ${result.outcome} / ${result.stopReason}; tokens in ${totalInputTokens} (cached ${totalCachedInputTokens ?? 0}), out ${totalOutputTokens}; cost ${totalCostUnits.toFixed(6)}`);
    if (result.metadata?.error !== undefined) console.log(`  error: ${result.metadata.error.code}: ${result.metadata.error.message}`);
    for (const receipt of result.metadata?.modelReceipts ?? []) {
      console.log(`  receipt: ${receipt.profileId} ${receipt.protocol} ${receipt.endpointHost} ${receipt.requestBytes} B → cost ${receipt.costUnits === undefined ? 'n/a (no pricing)' : receipt.costUnits.toFixed(6)}`);
    }
  }
} finally {
  await Promise.all(servers.map((server) => server.close()));
}
