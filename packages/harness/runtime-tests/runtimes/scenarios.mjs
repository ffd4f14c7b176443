// The cross-runtime scenarios: plain ESM importing the built main entry (and the Worker-safe
// testing and VFS entries), no runtime API of its own, so Node, Bun, Deno and workerd run the very
// same code. Each function returns JSON data; the vitest host compares it across runtimes.
import { buildContextPacket, createHarness, memoryTraceSink, readOutputArtifact, reduceOutput } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';
import { createMemoryVfs } from '@agent-assistant/vfs';

const input = (turnId) => ({
  assistantId: 'runtimes',
  turnId,
  message: { id: 'm1', text: 'Book a table', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'test' },
});
const tools = () =>
  createFakeToolRegistry({
    lookup_weather: ({ city }) => `Sunny in ${city}`,
    book_table: { requiresApproval: true, execute: ({ name }) => `Booked ${name}` },
  });
const answerLastResult = (step) => ({ type: 'final_answer', text: step.transcript.at(-1).result.output });

/** A turn that pauses on `book_table` for `name` (call id `b1`), signed with `secret`. */
async function pause(secret, name, turnId) {
  return createHarness({
    model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'b1', name: 'book_table', input: { name } }] }]),
    tools: tools(),
    continuationSecret: secret,
  }).runTurn(input(turnId));
}

/** Resumes `continuation` (JSON data) with `b1` approved, in a new harness. */
async function resume(secret, continuation) {
  const result = await createHarness({ model: createScriptedModel([answerLastResult]), tools: tools(), continuationSecret: secret }).resumeTurn(
    continuation,
    { type: 'approval', decisions: { b1: 'approved' } },
  );
  return [result.outcome, result.stopReason, result.assistantMessage?.text ?? null];
}

const LOG = `${'  ✓ passes\n'.repeat(5000)}AssertionError: expected 3 to be 4\n${'  ✓ passes\n'.repeat(5000)}Tests  1 failed | 10000 passed\n`;

/** The runtime's own version, found without any runtime-specific import. */
function runtimeVersion() {
  if (globalThis.Deno !== undefined) return globalThis.Deno.version.deno;
  if (globalThis.Bun !== undefined) return globalThis.Bun.version;
  return globalThis.process?.versions?.node ?? globalThis.navigator?.userAgent ?? 'unknown';
}

/** Every scenario, by name; each resolves to the values the host compares. */
export async function runScenarios({ secret, runtime }) {
  const trace = memoryTraceSink();
  const weather = await createHarness({
    model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'w1', name: 'lookup_weather', input: { city: 'Oslo' } }] }, answerLastResult]),
    tools: tools(),
    trace,
  }).runTurn(input('turn-weather'));

  const paused = await pause(secret, 'Maaemo', 'turn-approval');
  const stored = JSON.stringify(paused.continuation);
  const tampered = JSON.parse(stored);
  tampered.state.pendingCalls[0].input.name = 'Elsewhere';
  const wrongSecret = await createHarness({ model: createScriptedModel([]), continuationSecret: `${secret}-other` }).resumeTurn(JSON.parse(stored), {
    type: 'approval',
    decisions: { b1: 'approved' },
  });

  const timedOut = await createHarness({ model: { nextStep: () => new Promise(() => {}) }, limits: { maxElapsedMs: 20 } }).runTurn(input('turn-deadline'));

  const files = createMemoryVfs({ '/AGENTS.md': 'hello\n', '/src/a.ts': 'one\ntwo\nthree\n' });
  const manifest = { selections: [{ id: 'rules', path: 'AGENTS.md', required: true }, { id: 'a', path: 'src/a.ts', startLine: 2, dependsOn: ['rules'] }] };
  const { packet, bytes } = await buildContextPacket(files, manifest, { budget: 1024 });

  // Command output reduced with a caller's own artifact store (a Map), then read back and tampered with.
  const artifacts = new Map();
  const store = { put: async (id, streams) => void artifacts.set(id, streams), get: async (id) => artifacts.get(id) };
  const reduced = await reduceOutput({ argv: ['npm', 'test'], exitCode: 1, stdout: LOG, stderr: '', captureComplete: true }, { budget: 2048, store });
  const read = await readOutputArtifact(reduced.artifact.id, { store });
  artifacts.set(reduced.artifact.id, { stdout: new TextEncoder().encode('changed'), stderr: read.stderr });
  const tamperedOutput = await readOutputArtifact(reduced.artifact.id, { store }).catch((error) => error.reason);

  return {
    'tool turn': [weather.outcome, weather.assistantMessage?.text, trace.events.length],
    'approval pause (signed continuation)': [paused.outcome, paused.continuation?.signature?.length, paused.continuation?.state.pendingCalls.map((call) => call.name)],
    'resume in a new harness': await resume(secret, JSON.parse(stored)),
    'tampered continuation refused': (await resume(secret, tampered)).slice(0, 2),
    'wrong secret refused': [wrongSecret.outcome, wrongSecret.stopReason],
    'deadline -> deferred': [timedOut.outcome, timedOut.stopReason],
    'context packet': [packet.complete, packet.sources[0].sha256, packet.sources[1].content, bytes <= 1024],
    'output reduction': [
      new TextEncoder().encode(JSON.stringify(reduced)).byteLength <= 2048,
      reduced.stdout.shown.map((block) => block.text),
      new TextDecoder().decode(read.stdout) === LOG,
      tamperedOutput,
    ],
    version: runtimeVersion(),
    // For the cross-resume matrix: a continuation this runtime paused, naming it.
    continuation: (await pause(secret, runtime, `turn-from-${runtime}`)).continuation,
  };
}

/** Resumes each continuation of `continuations` (origin runtime → continuation) here. */
export async function resumeAll({ secret, continuations }) {
  const results = {};
  for (const [origin, continuation] of Object.entries(continuations)) results[origin] = await resume(secret, continuation);
  return results;
}
