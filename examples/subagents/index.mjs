// A parent assistant delegates to two subagents in one offline turn: a researcher (allowed only
// `lookup`) answers, and a mailer (allowed only `send_email`, which needs approval) pauses the
// parent. A second harness resumes the parent, which resumes the mailer where it stopped.
// Scripted models play the assistant and the subagents.
import { composeToolRegistries, createHarness, createSubagentToolRegistry } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '@agent-assistant/harness/testing';

const base = createFakeToolRegistry({
  lookup: { description: 'Look up a fact.', execute: () => 'The launch is on Friday.' },
  send_email: { description: 'Send an email.', requiresApproval: true, execute: (input) => `sent to ${input.to}` },
});

function setup() {
  const subagentModel = createScriptedModel((input) => {
    const last = input.transcript.at(-1);
    if (input.instructions.systemPrompt.startsWith('You research')) {
      return last?.type === 'tool_result'
        ? { type: 'final_answer', text: last.result.output, usage: { inputTokens: 120, outputTokens: 8, costUnits: 0.002 } }
        : { type: 'tool_request', calls: [{ id: 'r1', name: 'lookup', input: { q: input.message.text } }], usage: { inputTokens: 90, outputTokens: 6, costUnits: 0.001 } };
    }
    return last?.type === 'tool_result'
      ? { type: 'final_answer', text: `Email: ${last.result.output}` }
      : { type: 'tool_request', calls: [{ id: 'm1', name: 'send_email', input: { to: 'team@example.com', body: input.message.text } }] };
  });
  const tools = composeToolRegistries(
    base,
    createSubagentToolRegistry({
      model: subagentModel,
      tools: base,
      subagents: [
        { name: 'researcher', description: 'Finds facts.', systemPrompt: 'You research carefully.', tools: ['lookup'] },
        { name: 'mailer', description: 'Sends email.', systemPrompt: 'You write short emails.', tools: ['send_email'], limits: { maxIterations: 3 } },
      ],
    }),
  );
  const model = createScriptedModel((input) => {
    const done = input.transcript.filter((item) => item.type === 'tool_result').map((item) => item.result);
    if (done.length === 0) return { type: 'tool_request', calls: [{ id: 't1', name: 'task', input: { subagent: 'researcher', prompt: 'When is the launch?' } }] };
    if (done.length === 1) return { type: 'tool_request', calls: [{ id: 't2', name: 'task', input: { subagent: 'mailer', prompt: `Tell the team: ${done[0].output}` } }] };
    return { type: 'final_answer', text: `Researcher: ${done[0].output} Mailer: ${done[1].output}` };
  });
  const trace = { emit: (event) => event.subagentPath && console.log(`  trace ${event.subagentPath.join('/')}: ${event.type}`) };
  // Same secret on both sides, so another harness (or process) can resume the paused turn.
  return createHarness({ model, tools, trace, continuationSecret: 'example-secret-0123456789' });
}

const paused = await setup().runTurn(createTurnInput({ text: 'Find the launch date and tell the team.' }));
console.log(`first run: ${paused.outcome}; asks: ${paused.continuation?.state.approvals?.map((r) => `${r.id} ${r.summary}`).join('; ')}`);

const decisions = Object.fromEntries((paused.continuation?.state.approvals ?? []).map((r) => [r.id, 'approved']));
const done = await setup().resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), { type: 'approval', decisions });
console.log(`after approval: ${done.outcome}: ${done.assistantMessage?.text}`);
console.log(`usage (parent + subagents): ${done.usage.totalInputTokens} input tokens, cost ${done.usage.totalCostUnits}`);
