// Resumes a continuation read from stdin in a fresh Node process, using the built package.
import { createHarness } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const { continuation, secret } = JSON.parse(raw);

const tools = createFakeToolRegistry({ send_email: { requiresApproval: true, execute: ({ to }) => `sent to ${to}` } });
const model = createScriptedModel([
  (input) => ({ type: 'final_answer', text: `Done after ${input.transcript.at(-1).result.output}` }),
]);
const harness = createHarness({ model, tools, continuationSecret: secret });
const result = await harness.resumeTurn(continuation, { type: 'approval', decisions: { 'mail-1': 'approved' } });
process.stdout.write(JSON.stringify({ result, toolCalls: tools.calls }));
