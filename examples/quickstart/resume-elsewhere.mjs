// The "other process" of the demo: reads a continuation on stdin and resumes it. It has what a
// real deployment has: CONTINUATION_SECRET from the environment (or not), and a file resume
// guard shared with every process on this machine (RESUME_CLAIMS_DIR).
import { createFileResumeGuard, createHarness } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';

let raw = '';
for await (const chunk of process.stdin) raw += chunk;

const harness = createHarness({
  model: createScriptedModel([(step) => ({ type: 'final_answer', text: step.transcript.at(-1).result.output })]),
  tools: createFakeToolRegistry({
    book_table: { requiresApproval: true, execute: ({ restaurant, time }) => `Booked ${restaurant} at ${time}.` },
  }),
  continuationSecret: process.env.CONTINUATION_SECRET || undefined,
  resumeGuard: createFileResumeGuard({ directory: process.env.RESUME_CLAIMS_DIR }),
});
const result = await harness.resumeTurn(raw, { type: 'approval', decisions: { b1: 'approved' } });
const said = result.assistantMessage?.text ?? result.metadata?.error?.message;
console.log(`   [pid ${process.pid}] ${result.outcome}/${result.stopReason}: ${said}`);
