import { describe, expect, it } from 'vitest';
import { composeToolRegistries, createHarness, HarnessConfigError, type HarnessResult, type HarnessTraceEvent } from '../../index.js';
import type { HarnessModelInput, HarnessModelOutput } from '../../core/types/model.js';
import { createFakeExecutionAdapter, createFakeToolRegistry, createScriptedModel, createTurnInput } from '../../testing/index.js';
import { createSubagentToolRegistry, type SubagentDefinition } from './index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';

function base() {
  return createFakeToolRegistry({
    lookup: { description: 'Look a fact up', execute: () => 'the answer is 42' },
    delete_all: { description: 'Delete everything', execute: () => 'deleted' },
    send_email: { description: 'Send an email', requiresApproval: true, execute: (input) => `sent to ${String(input.to)}` },
  });
}

function taskCall(id: string, subagent: string, prompt = 'Do the work.'): HarnessModelOutput {
  return { type: 'tool_request', calls: [{ id, name: 'task', input: { subagent, prompt } }] };
}

function results(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

type Step = HarnessModelOutput | ((input: HarnessModelInput) => HarnessModelOutput | Promise<HarnessModelOutput>);

function setup(options: {
  parent: Step[];
  child: Step[];
  agent?: Partial<SubagentDefinition>;
  limits?: Parameters<typeof createHarness>[0]['limits'];
  tools?: ReturnType<typeof base>;
}) {
  const tools = options.tools ?? base();
  const childModel = createScriptedModel(options.child);
  const events: HarnessTraceEvent[] = [];
  const subagents = createSubagentToolRegistry({
    model: childModel,
    tools,
    subagents: [
      { name: 'researcher', description: 'Finds facts.', systemPrompt: 'You research.', tools: ['lookup', 'send_email'], ...options.agent },
      { name: 'writer', description: 'Writes.', systemPrompt: 'You write.' },
    ],
  });
  const parentModel = createScriptedModel(options.parent);
  const harness = createHarness({
    model: parentModel,
    tools: composeToolRegistries(tools, subagents),
    continuationSecret: secret,
    trace: { emit: (event) => void events.push(event) },
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  return { harness, tools, childModel, parentModel, events };
}

describe('createSubagentToolRegistry', () => {
  it("streams the subagent's answer into a streamed parent turn as tool_text_delta events of its call", async () => {
    const { harness } = setup({
      parent: [taskCall('t1', 'researcher', 'What is the answer?'), { type: 'final_answer', text: 'It is 42.' }],
      child: [{ type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }] }, { type: 'final_answer', text: 'The answer is 42.' }],
    });
    const stream = harness.streamTurn(createTurnInput({ text: 'Ask the researcher.' }));
    const seen: string[] = [];
    const texts: string[] = [];
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === 'tool_text_delta') {
        expect(event).toMatchObject({ callId: 't1', toolName: 'task', iteration: 1 });
        texts.push(event.text);
      }
    }
    expect(texts.join('')).toBe('The answer is 42.');
    const started = seen.indexOf('tool_started');
    expect(seen.indexOf('tool_text_delta')).toBeGreaterThan(started);
    expect(seen.lastIndexOf('tool_text_delta')).toBeLessThan(seen.indexOf('tool_finished'));
    expect((await stream.result).outcome).toBe('completed');
  });

  it('runs a delegation as a nested turn: answer, summed usage, trace with the parent turn id and a path', async () => {
    const { harness, childModel, events, tools } = setup({
      parent: [
        { ...taskCall('t1', 'researcher', 'What is the answer?'), usage: { inputTokens: 10, outputTokens: 2, costUnits: 1 } },
        { type: 'final_answer', text: 'It is 42.', usage: { inputTokens: 20, outputTokens: 3, costUnits: 1 } },
      ],
      child: [
        { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }], usage: { inputTokens: 100, outputTokens: 5, costUnits: 2 } },
        { type: 'final_answer', text: 'The answer is 42.', usage: { inputTokens: 200, outputTokens: 7, costUnits: 3 } },
      ],
    });
    const result = await harness.runTurn(createTurnInput({ text: 'Ask the researcher.' }));
    expect(result.outcome).toBe('completed');
    const task = results(result).find((item) => item.toolName === 'task');
    expect(task?.status).toBe('success');
    expect(task?.output).toBe('The answer is 42.');
    expect(task?.usage).toMatchObject({ inputTokens: 300, outputTokens: 12, costUnits: 5 });
    expect(result.usage.totalInputTokens).toBe(330);
    expect(result.usage.totalOutputTokens).toBe(17);
    expect(result.usage.totalCostUnits).toBe(7);
    expect(childModel.calls[0]?.instructions.systemPrompt).toBe('You research.');
    expect(childModel.calls[0]?.message.text).toBe('What is the answer?');
    expect(tools.calls.map((call) => call.name)).toEqual(['lookup']);
    const nested = events.filter((event) => event.subagentPath !== undefined);
    expect(nested.length).toBeGreaterThan(0);
    expect(nested.every((event) => event.turnId === 'turn-test' && event.subagentPath?.join('/') === 'researcher')).toBe(true);
    expect(nested.map((event) => event.type)).toContain('tool_finished');
    expect(events.filter((event) => event.subagentPath === undefined && event.type === 'turn_finished')).toHaveLength(1);
  });

  it('gives the subagent exactly its allow-list, and no task tool unless allowed', async () => {
    const { harness, childModel, tools } = setup({
      parent: [taskCall('t1', 'researcher'), { type: 'final_answer', text: 'ok' }],
      child: [
        { type: 'tool_request', calls: [{ id: 'c1', name: 'delete_all', input: {} }] },
        { type: 'final_answer', text: 'could not' },
      ],
    });
    const result = await harness.runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(childModel.calls[0]?.availableTools.map((tool) => tool.name).sort()).toEqual(['lookup', 'send_email']);
    expect(tools.calls).toHaveLength(0);
    const childTranscript = childModel.calls[1]?.transcript ?? [];
    const refused = childTranscript.find((item) => item.type === 'tool_result');
    expect(refused?.type === 'tool_result' && refused.result.error?.code).toBe('tool_unavailable');
  });

  it('lets a subagent start another only when task is on its allow-list', async () => {
    const { harness, childModel } = setup({
      parent: [taskCall('t1', 'researcher'), { type: 'final_answer', text: 'ok' }],
      agent: { tools: ['lookup', 'task'] },
      child: [
        taskCall('c1', 'writer', 'Write it.'),
        { type: 'final_answer', text: 'written' },
        { type: 'final_answer', text: 'done via writer' },
      ],
    });
    const result = await harness.runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(childModel.calls[0]?.availableTools.map((tool) => tool.name).sort()).toEqual(['lookup', 'task']);
    // The writer (no tools) sees none, not even task.
    expect(childModel.calls[1]?.availableTools).toEqual([]);
    expect(results(result).find((item) => item.toolName === 'task')?.output).toBe('done via writer');
  });

  it('caps the subagent by the model steps and tool calls the parent run has left', async () => {
    const { harness, tools } = setup({
      limits: { maxToolCalls: 2, maxIterations: 2 },
      parent: [taskCall('t1', 'researcher'), { type: 'final_answer', text: 'ok' }],
      child: [
        { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }, { id: 'c2', name: 'lookup', input: {} }] },
        { type: 'final_answer', text: 'never reached' },
      ],
    });
    const result = await harness.runTurn(createTurnInput());
    // The task call used one of the parent's two tool calls: the child may make one, not two.
    expect(tools.callsOf('lookup')).toHaveLength(1);
    const task = results(result).find((item) => item.toolName === 'task');
    expect(task?.error).toMatchObject({ code: 'subagent_incomplete' });
    expect(task?.error?.message).toContain('max_tool_calls_reached');
  });

  it('caps the subagent by what the parent has left: budget and time; its own limits apply too', async () => {
    const seen: (number | undefined)[] = [];
    const { harness } = setup({
      limits: { budgetLimit: 10 },
      parent: [
        { ...taskCall('t1', 'researcher'), usage: { costUnits: 8 } },
        { type: 'final_answer', text: 'ok' },
      ],
      agent: { limits: { budgetLimit: 100, maxIterations: 1 } },
      child: [
        (input) => {
          seen.push(input.remainingBudget);
          return { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup', input: {} }] };
        },
      ],
    });
    const result = await harness.runTurn(createTurnInput());
    expect(seen).toEqual([2]);
    const task = results(result).find((item) => item.toolName === 'task');
    expect(task?.status).toBe('error');
    expect(task?.error).toMatchObject({ code: 'subagent_incomplete', retryable: true });
    expect(task?.error?.message).toContain('max_iterations_reached');

    const hanging = setup({
      limits: { maxElapsedMs: 150 },
      parent: [taskCall('t1', 'researcher')],
      agent: { limits: { maxElapsedMs: 60_000 } },
      child: [(input) => new Promise((resolve) => input.signal?.addEventListener('abort', () => resolve({ type: 'final_answer', text: 'late' })))],
    });
    const started = Date.now();
    const timedOut = await hanging.harness.runTurn(createTurnInput());
    expect(timedOut.stopReason).toBe('timeout_reached');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('stops the subagent when the parent is cancelled', async () => {
    const controller = new AbortController();
    let childSignal: AbortSignal | undefined;
    const { harness } = setup({
      parent: [taskCall('t1', 'researcher')],
      child: [
        (input) => {
          childSignal = input.signal;
          setTimeout(() => controller.abort(), 10);
          return new Promise(() => undefined);
        },
      ],
    });
    const result = await harness.runTurn(createTurnInput(), { signal: controller.signal });
    expect(result.stopReason).toBe('cancelled');
    expect(childSignal?.aborted).toBe(true);
  });

  it('returns a retryable error for an unknown subagent', async () => {
    const { harness, childModel } = setup({
      parent: [taskCall('t1', 'nobody'), { type: 'final_answer', text: 'ok' }],
      child: [],
    });
    const result = await harness.runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    const task = results(result).find((item) => item.toolName === 'task');
    expect(task?.error).toMatchObject({ code: 'unknown_subagent', retryable: true });
    expect(task?.error?.message).toContain('researcher, writer');
    expect(childModel.calls).toHaveLength(0);
  });

  it('pauses the parent when the subagent needs approval, and a fresh harness resumes the subagent', async () => {
    const first = setup({
      parent: [{ ...taskCall('t1', 'researcher', 'Email Ada.'), usage: { costUnits: 1 } }],
      child: [{ type: 'tool_request', calls: [{ id: 'm1', name: 'send_email', input: { to: 'ada@example.com' } }], usage: { costUnits: 2 } }],
    });
    const paused = await first.harness.runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    expect(first.tools.calls).toHaveLength(0);
    const requests = paused.continuation?.state.approvals ?? [];
    expect(requests.map((request) => request.id)).toEqual(['t1/m1']);
    expect(requests[0]?.metadata).toMatchObject({ subagent: 'researcher', subagentRequestId: 'm1' });
    expect(paused.usage.totalCostUnits).toBe(3);

    const second = setup({
      parent: [(input) => ({ type: 'final_answer', text: `Parent saw: ${results({ transcript: input.transcript } as HarnessResult).at(-1)?.output ?? ''}` })],
      child: [(input) => ({ type: 'final_answer', text: `Done: ${JSON.stringify(input.transcript.at(-1))}`, usage: { costUnits: 4 } })],
    });
    const resumed = await second.harness.resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), {
      type: 'approval',
      decisions: { 't1/m1': 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    expect(second.tools.calls.map((call) => call.name)).toEqual(['send_email']);
    expect(resumed.assistantMessage?.text).toContain('sent to ada@example.com');
    expect(resumed.usage.totalCostUnits).toBe(7);
    expect(second.parentModel.calls).toHaveLength(1);
  });

  it('asks for the approvals of parallel tasks together, and carries the calls not run yet', async () => {
    const email = (id: string): HarnessModelOutput => ({ type: 'tool_request', calls: [{ id, name: 'send_email', input: { to: `${id}@example.com` } }] });
    const first = setup({
      limits: { toolConcurrency: 2 },
      parent: [
        {
          type: 'tool_request',
          calls: [
            { id: 't1', name: 'task', input: { subagent: 'researcher', prompt: 'one' } },
            { id: 't2', name: 'task', input: { subagent: 'researcher', prompt: 'two' } },
            { id: 'l1', name: 'lookup', input: {} },
          ],
        },
      ],
      child: [(input) => email(input.message.text === 'one' ? 'a' : 'b'), (input) => email(input.message.text === 'one' ? 'a' : 'b')],
    });
    const paused = await first.harness.runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    expect(paused.continuation?.state.approvals?.map((request) => request.id)).toEqual(['t1/a', 't2/b']);
    const state = paused.continuation?.state;
    expect(state?.mode === 'loop' ? state.pendingCalls?.map((call) => call.id) : undefined).toEqual(['t1', 't2', 'l1']);
    expect(first.tools.calls).toHaveLength(0);

    const second = setup({
      parent: [{ type: 'final_answer', text: 'ok' }],
      child: [(input) => ({ type: 'final_answer', text: `child saw ${String(input.transcript.filter((item) => item.type === 'tool_result').length)} result` }), (input) => ({ type: 'final_answer', text: `child saw ${String(input.transcript.filter((item) => item.type === 'tool_result').length)} result` })],
    });
    const resumed = await second.harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { 't1/a': 'approved', 't2/b': 'rejected' } });
    expect(resumed.outcome).toBe('completed');
    expect(second.tools.calls.map((call) => `${call.name}:${String(call.input.to ?? '')}`)).toEqual(['send_email:a@example.com', 'lookup:']);
    expect(results(resumed).map((result) => `${result.callId}:${result.status}`)).toEqual(['t1:success', 't2:success', 'l1:success']);
  });

  it('passes a rejection to the subagent', async () => {
    const first = setup({
      parent: [taskCall('t1', 'researcher')],
      child: [{ type: 'tool_request', calls: [{ id: 'm1', name: 'send_email', input: { to: 'x@example.com' } }] }],
    });
    const paused = await first.harness.runTurn(createTurnInput());
    const second = setup({
      parent: [{ type: 'final_answer', text: 'ok' }],
      child: [(input) => ({ type: 'final_answer', text: JSON.stringify(input.transcript.filter((item) => item.type === 'tool_result')) })],
    });
    const resumed = await second.harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { 't1/m1': 'rejected' } });
    expect(resumed.outcome).toBe('completed');
    expect(second.tools.calls).toHaveLength(0);
    expect(results(resumed).find((item) => item.toolName === 'task')?.output).toContain('rejected');
  });

  it('pauses the parent for a subagent question, and resuming answers the subagent', async () => {
    const first = setup({
      parent: [taskCall('t1', 'researcher', 'Weather?')],
      child: [{ type: 'clarification', question: 'Which city?' }],
    });
    const paused = await first.harness.runTurn(createTurnInput());
    expect(paused.outcome).toBe('needs_clarification');
    expect(paused.assistantMessage?.text).toBe('Which city?');

    const second = setup({
      parent: [{ type: 'final_answer', text: 'Parent done.' }],
      child: [
        (input) => {
          const answer = input.transcript.find((item) => item.type === 'clarification_answer');
          return { type: 'final_answer', text: `Sunny in ${answer?.type === 'clarification_answer' ? answer.answer : '?'}.` };
        },
      ],
    });
    const resumed = await second.harness.resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), { type: 'clarification', answer: 'Oslo' });
    expect(resumed.outcome).toBe('completed');
    expect(results(resumed).find((item) => item.toolName === 'task')?.output).toBe('Sunny in Oslo.');
  });

  it('runs subagents on a backend, and pauses the parent for the backend approval', async () => {
    const backend = createFakeExecutionAdapter({
      capabilities: { approvalInterrupts: 'native' },
      steps: [
        { status: 'awaiting_approval', approvalRequest: { approvalKey: 'push-1', reason: 'Push to main?' }, usage: { costUnits: 2 } },
        (request) => ({ status: 'completed', output: { text: `pushed after ${JSON.stringify(request.resume)}` }, usage: { costUnits: 3 } }),
      ],
    });
    const subagents = createSubagentToolRegistry({ backend, subagents: [{ name: 'coder', description: 'Codes.', systemPrompt: 'You code.' }] });
    const parent = (steps: HarnessModelOutput[]) => createHarness({ model: createScriptedModel(steps), tools: subagents, continuationSecret: secret });
    const paused = await parent([taskCall('t1', 'coder')]).runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    expect(paused.continuation?.state.approvals?.map((request) => request.id)).toEqual(['t1/push-1']);
    expect(backend.requests[0]?.instructions.systemPrompt).toBe('You code.');
    const resumed = await parent([{ type: 'final_answer', text: 'ok' }]).resumeTurn(paused.continuation, {
      type: 'approval',
      decisions: { 't1/push-1': 'approved' },
    });
    expect(resumed.outcome).toBe('completed');
    expect(results(resumed)[0]?.output).toBe('pushed after {"type":"approval","decisions":{"push-1":"approved"}}');
    expect(resumed.usage.totalCostUnits).toBe(5);
  });

  it('checks its options', () => {
    const model = createScriptedModel([]);
    expect(() => createSubagentToolRegistry({ model, subagents: [] })).toThrow(HarnessConfigError);
    expect(() => createSubagentToolRegistry({ model, subagents: [{ name: 'a b', description: 'd', systemPrompt: 's' }] })).toThrow(/name/);
    expect(() =>
      createSubagentToolRegistry({ model, tools: Object.assign(base(), { toolNames: ['lookup'] }), subagents: [{ name: 'a', description: 'd', systemPrompt: 's', tools: ['nope'] }] }),
    ).toThrow(/nope/);
    expect(() => createSubagentToolRegistry({ subagents: [{ name: 'a', description: 'd', systemPrompt: 's' }] })).toThrow(/model/);
    const { requests: _requests, ...handWritten } = createFakeExecutionAdapter({ steps: [] });
    expect(() => createSubagentToolRegistry({ backend: handWritten, subagents: [{ name: 'a', description: 'd', systemPrompt: 's' }] })).toThrow(/defineExecutionAdapter\(adapter\)/);
  });
});
