// Races on a file resume guard: reads { continuation, secret, directory } as the first stdin line,
// prints "ready", waits for the line "go", resumes with the built package and prints the outcome.
import { createInterface } from 'node:readline';
import { createFileResumeGuard, createHarness } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const { continuation, secret, directory } = JSON.parse((await lines.next()).value);
const tools = createFakeToolRegistry({ send_email: { requiresApproval: true, execute: ({ to }) => `sent to ${to}` } });
const harness = createHarness({
  model: createScriptedModel([{ type: 'final_answer', text: 'Mail sent.' }]),
  tools,
  continuationSecret: secret,
  resumeGuard: createFileResumeGuard({ directory }),
});
process.stdout.write('ready\n');
await lines.next();
const result = await harness.resumeTurn(continuation, { type: 'approval', decisions: { 'mail-1': 'approved' } });
process.stdout.write(`${JSON.stringify({ outcome: result.outcome, reason: result.metadata?.error?.message, toolCalls: tools.calls.length })}\n`);
process.exit(0);
