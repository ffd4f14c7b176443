import { describe, expect, it } from 'vitest';
import { composeToolRegistries, createHarness, createQuestionToolRegistry, HarnessConfigError, type HarnessResult, type HarnessToolCall } from '../../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';
const ask = (id: string, question: string, choices?: string[]): HarnessToolCall => ({ id, name: 'question', input: { question, ...(choices === undefined ? {} : { choices }) } });

function results(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

describe('createQuestionToolRegistry', () => {
  it('answers each of two questions of one step with its own answer: the second asks again after the first is answered', async () => {
    const model = createScriptedModel([{ type: 'tool_request', calls: [ask('q1', 'Which city?', ['Oslo', 'Bergen']), ask('q2', 'Which day?')] }, { type: 'final_answer', text: 'Done.' }]);
    const harness = createHarness({ model, tools: createQuestionToolRegistry(), continuationSecret: secret });
    const first = await harness.runTurn(createTurnInput());
    expect(first).toMatchObject({ outcome: 'needs_clarification', assistantMessage: { text: 'Which city?' }, metadata: { clarification: { callId: 'q1', choices: ['Oslo', 'Bergen'] } } });
    const second = await harness.resumeTurn(first.continuation!, { type: 'clarification', answer: 'Oslo' });
    expect(second).toMatchObject({ outcome: 'needs_clarification', assistantMessage: { text: 'Which day?' }, metadata: { clarification: { callId: 'q2' } } });
    expect(second.metadata?.clarification?.choices).toBeUndefined();
    const done = await harness.resumeTurn(second.continuation!, { type: 'clarification', answer: 'Tuesday' });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Done.' } });
    expect(results(done).map((result) => [result.callId, result.output])).toEqual([
      ['q1', 'Oslo'],
      ['q2', 'Tuesday'],
    ]);
    expect(model.calls).toHaveLength(2);
  });

  it('waits behind an approval of the same step, then asks; other tools of the step run once', async () => {
    const tools = composeToolRegistries(
      createQuestionToolRegistry(),
      createFakeToolRegistry({ lookup: () => 'found', send_email: { requiresApproval: true, execute: () => 'sent' } }),
    );
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'l1', name: 'lookup', input: {} }, { id: 'm1', name: 'send_email', input: {} }, ask('q1', 'Sign it as who?')] },
      { type: 'final_answer', text: 'Sent and signed.' },
    ]);
    const harness = createHarness({ model, tools, continuationSecret: secret });
    const approval = await harness.runTurn(createTurnInput());
    expect(approval.outcome).toBe('awaiting_approval');
    const question = await harness.resumeTurn(approval.continuation!, { type: 'approval', decisions: { m1: 'approved' } });
    expect(question).toMatchObject({ outcome: 'needs_clarification', assistantMessage: { text: 'Sign it as who?' } });
    const done = await harness.resumeTurn(question.continuation!, { type: 'clarification', answer: 'Ada' });
    expect(done.outcome).toBe('completed');
    expect(results(done).map((result) => [result.callId, result.output])).toEqual([
      ['l1', 'found'],
      ['m1', 'sent'],
      ['q1', 'Ada'],
    ]);
  });

  it('refuses invalid input with a retryable invalid_input error, without pausing', async () => {
    const tooMany = Array.from({ length: 4 }, (_, index) => `choice ${String(index)}`);
    const model = createScriptedModel([{ type: 'tool_request', calls: [ask('q1', '   '), ask('q2', 'Which?', tooMany)] }, { type: 'final_answer', text: 'ok' }]);
    const result = await createHarness({ model, tools: createQuestionToolRegistry({ maxChoices: 3 }) }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(results(result).map((entry) => entry.error?.code)).toEqual(['invalid_input', 'invalid_input']);
  });

  it('tells the model it cannot ask where the turn cannot pause (the registry called on its own)', async () => {
    const registry = createQuestionToolRegistry();
    const result = await registry.execute(ask('q1', 'Which city?'), {
      assistantId: 'a',
      turnId: 't',
      iteration: 1,
      toolCallIndex: 0,
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ status: 'error', error: { code: 'question_unsupported', retryable: true } });
  });

  it('offers one tool named question, with a JSON Schema, and checks its options', async () => {
    const listed = await createQuestionToolRegistry().listAvailable({ assistantId: 'a', turnId: 't' });
    expect(listed.map((tool) => tool.name)).toEqual(['question']);
    expect(listed[0]!.inputSchema).toMatchObject({ type: 'object', required: ['question'], additionalProperties: false });
    expect(() => createQuestionToolRegistry({ maxChoices: 21 })).toThrow(HarnessConfigError);
    expect(() => createQuestionToolRegistry({ maxQuestionChars: 0 })).toThrow(/maxQuestionChars/);
  });
});
