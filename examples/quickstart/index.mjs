// npm run demo — offline, no keys: a tool turn, then an approval turn that is serialised,
// resumed by a fresh harness and completed, then the same across processes: refused without the
// shared secret, resumed with it, and a replay refused by the resume guard.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleTraceSink, createHarness, stopReasonToUserMessage } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';
import * as harnessPackage from '@agent-assistant/harness';

const secret = 'demo-secret-change-me-0123456789abcdef';
const trace = consoleTraceSink();
const tools = () =>
  createFakeToolRegistry({
    lookup_weather: {
      description: 'Current weather for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => ({ city, sky: 'sunny', celsius: 21 }),
    },
    book_table: {
      description: 'Book a restaurant table (needs approval)',
      requiresApproval: true,
      execute: ({ restaurant, time }) => `Booked ${restaurant} at ${time}.`,
    },
  });

function modelFor(steps) {
  const apiKey = process.env.OPENROUTER_API_KEY;
  if (apiKey && typeof harnessPackage.createOpenRouterModelAdapter === 'function') {
    console.log('(using OpenRouter because OPENROUTER_API_KEY is set)');
    return harnessPackage.createOpenRouterModelAdapter({ apiKey: { env: 'OPENROUTER_API_KEY' }, model: 'openai/gpt-4o-mini' });
  }
  return createScriptedModel(steps);
}

const input = (turnId, text) => ({
  assistantId: 'demo-assistant',
  turnId,
  message: { id: `${turnId}-message`, text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a concise assistant. Use tools when they help.' },
});

console.log('\n=== 1. A tool turn ===');
const weather = await createHarness({
  model: modelFor([
    { type: 'tool_request', calls: [{ id: 'w1', name: 'lookup_weather', input: { city: 'Oslo' } }] },
    (step) => {
      const result = step.transcript.at(-1).result.structuredOutput;
      return { type: 'final_answer', text: `It is ${result.sky} and ${result.celsius}°C in ${result.city}.` };
    },
  ]),
  tools: tools(),
  trace,
}).runTurn(input('turn-weather', 'What is the weather in Oslo?'));
console.log(`-> ${weather.outcome}/${weather.stopReason}: ${weather.assistantMessage?.text}`);
console.log(`   usage: ${JSON.stringify(weather.usage)}`);

console.log('\n=== 2. An approval turn, serialised and resumed elsewhere ===');
const paused = await createHarness({
  model: createScriptedModel([
    { type: 'tool_request', calls: [{ id: 'b1', name: 'book_table', input: { restaurant: 'Maaemo', time: '19:00' } }] },
  ]),
  tools: tools(),
  trace,
  continuationSecret: secret,
}).runTurn(input('turn-booking', 'Book Maaemo at seven.'));
console.log(`-> ${paused.outcome}/${paused.stopReason}: ${stopReasonToUserMessage(paused)}`);
const stored = JSON.stringify(paused.continuation);
console.log(`   continuation: ${stored.length} bytes of signed JSON, pending ${paused.metadata.approvalRequests.map((r) => r.summary).join(', ')}`);

const resumed = await createHarness({
  model: createScriptedModel([(step) => ({ type: 'final_answer', text: step.transcript.at(-1).result.output })]),
  tools: tools(),
  trace,
  continuationSecret: secret,
}).resumeTurn(JSON.parse(stored), { type: 'approval', decisions: { b1: 'approved' } });
console.log(`-> ${resumed.outcome}/${resumed.stopReason}: ${resumed.assistantMessage?.text}`);

const tampered = JSON.parse(stored);
tampered.state.pendingCalls[0].input.restaurant = 'Somewhere else';
const refused = await createHarness({ model: createScriptedModel([]), continuationSecret: secret }).resumeTurn(tampered, {
  type: 'approval',
  decisions: { b1: 'approved' },
});
console.log(`\nA tampered copy is refused: ${refused.outcome}/${refused.stopReason} (${refused.metadata.error.message})`);

console.log('\n=== 3. Across processes: the same continuationSecret on both sides, resumed once ===');
const claims = await mkdtemp(join(tmpdir(), 'demo-resume-claims-'));
const resumeElsewhere = (continuation, secret) =>
  new Promise((resolve, reject) => {
    // The secret travels like in production: through the environment, never argv.
    const env = { ...process.env, RESUME_CLAIMS_DIR: claims, CONTINUATION_SECRET: secret ?? '' };
    const child = spawn(process.execPath, [fileURLToPath(new URL('./resume-elsewhere.mjs', import.meta.url))], { env, stdio: ['pipe', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
    child.stdin.end(JSON.stringify(continuation));
  });
const bookingTurn = (config) =>
  createHarness({
    model: createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'b1', name: 'book_table', input: { restaurant: 'Kontrast', time: '20:00' } }] },
    ]),
    tools: tools(),
    ...config,
  }).runTurn(input(`turn-${Math.random().toString(36).slice(2)}`, 'Book Kontrast at eight.'));

const unconfigured = await bookingTurn({});
console.log('No continuationSecret here: signed with this process\'s random key, so another process refuses it:');
await resumeElsewhere(unconfigured.continuation);
const shared = await bookingTurn({ continuationSecret: secret });
console.log('The same continuationSecret on both sides: the other process resumes it; a replay is refused:');
await resumeElsewhere(shared.continuation, secret);
await resumeElsewhere(shared.continuation, secret);
await rm(claims, { recursive: true, force: true });
