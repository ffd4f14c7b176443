// Resumes a parent turn paused by a subagent's approval, in a fresh process: reads
// { continuation, secret, decisions } from stdin, resumes with the built package (imported by
// path, so it is this checkout's build) and prints { result, toolCalls }.
import { composeToolRegistries, createHarness, createSubagentToolRegistry } from '../../dist/index.js';
import { createFakeToolRegistry, createScriptedModel } from '../../dist/testing.js';

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const { continuation, secret, decisions } = JSON.parse(raw);
const base = createFakeToolRegistry({
  send_email: { description: 'Send an email', requiresApproval: true, execute: ({ to }) => `sent to ${to}` },
});
const subagents = createSubagentToolRegistry({
  model: createScriptedModel((input) => {
    const last = input.transcript.at(-1);
    return { type: 'final_answer', text: `mailer: ${last?.type === 'tool_result' ? last.result.output : 'nothing ran'}` };
  }),
  tools: base,
  subagents: [{ name: 'mailer', description: 'Sends email.', systemPrompt: 'You send email.', tools: ['send_email'] }],
});
const harness = createHarness({
  model: createScriptedModel((input) => {
    const task = input.transcript.filter((item) => item.type === 'tool_result').at(-1);
    return { type: 'final_answer', text: `parent: ${task?.result.output ?? 'no task result'}` };
  }),
  tools: composeToolRegistries(base, subagents),
  continuationSecret: secret,
});
const result = await harness.resumeTurn(continuation, { type: 'approval', decisions });
process.stdout.write(JSON.stringify({ result, toolCalls: base.calls }));
process.exit(0);
