import { createFileResumeGuard, createHarness, createToolRegistry, defineTool, type HarnessModelAdapter } from '@agent-assistant/harness';

// A scripted model: it asks to delete a file, then reports the result. Use a real one in your app.
const model: HarnessModelAdapter = {
  async nextStep({ transcript }) {
    const last = transcript.at(-1);
    if (last?.type === 'tool_result') return { type: 'final_answer', text: `Done: ${last.result.output}.` };
    return { type: 'tool_request', calls: [{ id: 'call-1', name: 'delete_file', input: { path: 'old.log' } }] };
  },
};
const tools = createToolRegistry([
  defineTool({
    name: 'delete_file',
    description: 'Delete a file in the project.',
    input: { jsonSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
    requiresApproval: true, // the turn pauses before each call
    execute: ({ path }) => `deleted ${String(path)}`,
  }),
]);
const store = new Map<string, string>(); // your database
const input = {
  assistantId: 'demo', turnId: 'turn-2', instructions: { systemPrompt: 'You tidy up files.' },
  message: { id: 'm2', text: 'Delete old.log', receivedAt: new Date().toISOString() },
};

const harness = createHarness({
  model, tools,
  continuationSecret: process.env.CONTINUATION_SECRET, // ≥ 16 chars; 32 random bytes, base64
  resumeGuard: createFileResumeGuard({ directory: './resume-claims' }), // each continuation resumes once
});
const paused = await harness.runTurn(input); // awaiting_approval
store.set(paused.turnId, JSON.stringify(paused.continuation));
// later, in any process or machine with the same continuationSecret:
const done = await harness.resumeTurn(JSON.parse(store.get(input.turnId) ?? 'null'), {
  type: 'approval',
  decisions: { 'call-1': 'approved' },
});
console.log(paused.outcome, done.outcome, done.assistantMessage?.text); // awaiting_approval completed Done: deleted old.log.
