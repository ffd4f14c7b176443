import { describe, expect, it } from 'vitest';
import { composeToolRegistries, createHarness, createPlanningToolRegistry, HarnessConfigError, type HarnessResult } from '../../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';
const plan = [
  { content: 'Read the report', status: 'completed' },
  { content: 'Send the summary', status: 'in_progress' },
];

function tools() {
  return composeToolRegistries(
    createPlanningToolRegistry({ maxItems: 3 }),
    createFakeToolRegistry({ send_email: { description: 'Send an email', requiresApproval: true, execute: () => 'sent' } }),
  );
}

function results(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

describe('createPlanningToolRegistry', () => {
  it('keeps the plan across an approval pause, resumed by another harness', async () => {
    const first = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'p1', name: 'write_todos', input: { todos: plan } }] },
        { type: 'tool_request', calls: [{ id: 'm1', name: 'send_email', input: { to: 'a@example.com' } }] },
      ]),
      tools: tools(),
      continuationSecret: secret,
    });
    const paused = await first.runTurn(createTurnInput({ text: 'Summarise and send.' }));
    expect(paused.outcome).toBe('awaiting_approval');
    expect(results(paused)[0]?.output).toBe('1. [x] Read the report\n2. [~] Send the summary');

    const second = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'p2', name: 'read_todos', input: {} }] },
        { type: 'final_answer', text: 'Done.' },
      ]),
      tools: tools(),
      continuationSecret: secret,
    });
    const resumed = await second.resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), {
      type: 'approval',
      decisions: { m1: 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    const read = results(resumed).find((result) => result.toolName === 'read_todos');
    expect(read?.structuredOutput).toEqual({ todos: plan });
  });

  it('refuses a plan over maxItems as invalid input, and reads an empty plan', async () => {
    const harness = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'p1', name: 'write_todos', input: { todos: [...plan, ...plan] } }] },
        { type: 'tool_request', calls: [{ id: 'p2', name: 'read_todos', input: {} }] },
        { type: 'final_answer', text: 'ok' },
      ]),
      tools: tools(),
    });
    const result = await harness.runTurn(createTurnInput({ text: 'plan' }));
    const [written, read] = results(result);
    expect(written?.error?.code).toBe('invalid_input');
    expect(read?.output).toBe('The todo list is empty.');
  });

  it('checks its options', () => {
    expect(() => createPlanningToolRegistry({ maxItems: 0 })).toThrow(HarnessConfigError);
    expect(() => createPlanningToolRegistry({ maxItemChars: 1.5 })).toThrow(/maxItemChars/);
  });
});
