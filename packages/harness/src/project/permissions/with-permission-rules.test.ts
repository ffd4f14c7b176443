import { describe, expect, it } from 'vitest';
import { composeToolRegistries, createHarness, createToolRegistry, defineTool, HarnessConfigError, type HarnessToolResult } from '../../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../../testing/index.js';
import { ruleSet } from './__fixtures__/rule-set.js';
import { withPermissionRules } from './with-permission-rules.js';

const secret = 'permission-rules-secret-0123456789abcdef';

function shellTools(options: { requiresApproval?: boolean } = {}) {
  return createFakeToolRegistry({
    bash: { requiresApproval: options.requiresApproval, execute: ({ command }) => `ran ${String(command)}` },
    send_email: ({ to }) => `sent to ${String(to)}`,
  });
}

const bashCall = (id: string, command: string) => ({ type: 'tool_request' as const, calls: [{ id, name: 'bash', input: { command } }] });

/** The tool results the model saw in its last call. */
function lastResults(model: ReturnType<typeof createScriptedModel>): HarnessToolResult[] {
  return model.calls.at(-1)!.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

describe('withPermissionRules under createHarness', () => {
  it('does not offer a tool whose rule is a whole-tool deny, and refuses it if called anyway', async () => {
    const inner = shellTools();
    const tools = withPermissionRules(inner, ruleSet([['send_email', 'deny']]));
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'send_email', input: { to: 'ada@example.com' } }] },
      { type: 'final_answer', text: 'done' },
    ]);
    const result = await createHarness({ model, tools }).runTurn(createTurnInput());
    expect(model.calls[0]!.availableTools.map((tool) => tool.name)).toEqual(['bash']);
    expect(result.outcome).toBe('completed');
    expect(lastResults(model)[0]).toMatchObject({ status: 'error', error: { code: 'tool_unavailable' } });
    expect(inner.calls).toEqual([]);
    const direct = await tools.execute({ id: 'd1', name: 'send_email', input: {} }, { assistantId: 'a', turnId: 't', iteration: 1, toolCallIndex: 0, signal: new AbortController().signal });
    expect(direct).toMatchObject({ status: 'error', error: { code: 'permission_denied', metadata: { permissionRule: { tool: 'send_email', action: 'deny' } } } });
  });

  it('declares only the tools it offers, so compositions see the same names', () => {
    const typed = createToolRegistry([
      defineTool({ name: 'alpha', description: 'A', input: { jsonSchema: { type: 'object' } }, execute: () => 'a' }),
      defineTool({ name: 'beta', description: 'B', input: { jsonSchema: { type: 'object' } }, execute: () => 'b' }),
    ]);
    const ruled = withPermissionRules(typed, ruleSet([['*', 'deny'], ['alpha', 'ask']]));
    expect(ruled.toolNames).toEqual(['alpha']);
    expect(composeToolRegistries(ruled, createFakeToolRegistry({ beta: () => 'other beta' })).toolNames).toBeUndefined();
    expect(withPermissionRules(shellTools(), ruleSet([])).toolNames).toBeUndefined();
  });

  it('returns a pattern deny to the model as a tool error naming the rule, and does not run the call', async () => {
    const inner = shellTools();
    const tools = withPermissionRules(inner, ruleSet([['bash', { '*': 'allow', 'rm *': 'deny' }]]));
    const model = createScriptedModel([bashCall('c1', 'rm -rf /'), bashCall('c2', 'ls'), { type: 'final_answer', text: 'ok' }]);
    const result = await createHarness({ model, tools }).runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    const [denied, ran] = lastResults(model);
    expect(denied).toMatchObject({
      callId: 'c1',
      status: 'error',
      error: { code: 'permission_denied', retryable: true, metadata: { permissionRule: { tool: 'bash', pattern: 'rm *', action: 'deny' } } },
    });
    expect(denied!.error!.message).toContain('"rm *"');
    expect(ran).toMatchObject({ callId: 'c2', status: 'success', output: 'ran ls' });
    expect(inner.calls.map((call) => call.input.command)).toEqual(['ls']);
  });

  it('pauses an ask call awaiting_approval with the rule in the request, and runs it once when approved', async () => {
    const inner = shellTools();
    const rules = ruleSet([['bash', { 'git push*': 'ask' }]]);
    const harness = createHarness({
      model: createScriptedModel([bashCall('c1', 'git push origin main'), { type: 'final_answer', text: 'pushed' }]),
      tools: withPermissionRules(inner, rules),
      continuationSecret: secret,
    });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
    expect(paused.metadata?.approvalRequests).toEqual([
      {
        id: 'c1',
        kind: 'tool_call',
        summary: expect.stringContaining('The permission rule bash "git push*": ask') as string,
        details: { toolName: 'bash', input: { command: 'git push origin main' }, permissionRule: { tool: 'bash', pattern: 'git push*', action: 'ask' } },
      },
    ]);
    expect(inner.calls).toEqual([]);
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { c1: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'pushed' } });
    expect(inner.calls).toHaveLength(1);
  });

  it('gives a rejected ask call the approval_rejected error and never runs it', async () => {
    const inner = shellTools();
    const model = createScriptedModel([bashCall('c1', 'git push'), { type: 'final_answer', text: 'not pushed' }]);
    const harness = createHarness({ model, tools: withPermissionRules(inner, ruleSet([['bash', 'ask']])), continuationSecret: secret });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused.metadata?.approvalRequests).toMatchObject([{ details: { permissionRule: { tool: 'bash', action: 'ask' } } }]);
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { c1: 'rejected' } });
    expect(resumed.outcome).toBe('completed');
    expect(lastResults(model)[0]).toMatchObject({ status: 'error', error: { code: 'approval_rejected' } });
    expect(inner.calls).toEqual([]);
  });

  it("asks once when the tool needs approval itself: the rule's request replaces the tool's", async () => {
    const inner = shellTools({ requiresApproval: true });
    const harness = createHarness({
      model: createScriptedModel([bashCall('c1', 'git push'), { type: 'final_answer', text: 'pushed' }]),
      tools: withPermissionRules(inner, ruleSet([['bash', { 'git push*': 'ask' }]])),
      continuationSecret: secret,
    });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused.metadata?.approvalRequests).toMatchObject([{ id: 'c1', details: { permissionRule: { pattern: 'git push*' } } }]);
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { c1: 'approved' } });
    expect(resumed.outcome).toBe('completed');
    expect(inner.calls).toHaveLength(1);
  });

  it("keeps the tool's own approval for allowed calls, and does not ask about a call the rules deny", async () => {
    const inner = shellTools({ requiresApproval: true });
    const model = createScriptedModel([bashCall('c1', 'rm -rf /'), bashCall('c2', 'ls'), { type: 'final_answer', text: 'listed' }]);
    const harness = createHarness({ model, tools: withPermissionRules(inner, ruleSet([['bash', { 'rm *': 'deny', 'ls*': 'allow' }]])), continuationSecret: secret });
    const paused = await harness.runTurn(createTurnInput());
    // The denied call never reached an approval; the allowed one still needs the tool's own.
    expect(paused.outcome).toBe('awaiting_approval');
    expect(paused.metadata?.approvalRequests).toEqual([expect.objectContaining({ id: 'c2', details: { toolName: 'bash', input: { command: 'ls' } } })]);
    expect(lastResults(model)[0]).toMatchObject({ callId: 'c1', error: { code: 'permission_denied' } });
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { c2: 'approved' } });
    expect(resumed.outcome).toBe('completed');
    expect(inner.calls.map((call) => call.input.command)).toEqual(['ls']);
  });

  it('does not ask again when an approved call pauses for its own reasons and resumes', async () => {
    let runs = 0;
    const asking = createFakeToolRegistry({
      deploy: ({ target }, { turn }) => {
        runs += 1;
        if (turn?.resolution?.type !== 'clarification') {
          turn?.pause({ type: 'clarification', question: 'Which region?' });
          return 'paused';
        }
        return `deployed ${String(target)} to ${turn.resolution.answer}`;
      },
    });
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'd1', name: 'deploy', input: { target: 'web' } }] },
      { type: 'final_answer', text: 'deployed' },
    ]);
    const harness = createHarness({ model, tools: withPermissionRules(asking, ruleSet([['deploy', 'ask']])), continuationSecret: secret });
    const approval = await harness.runTurn(createTurnInput());
    expect(approval.outcome).toBe('awaiting_approval');
    expect(runs).toBe(0);
    const question = await harness.resumeTurn(approval.continuation!, { type: 'approval', decisions: { d1: 'approved' } });
    expect(question).toMatchObject({ outcome: 'needs_clarification', assistantMessage: { text: 'Which region?' } });
    const done = await harness.resumeTurn(question.continuation!, { type: 'clarification', answer: 'eu-west' });
    expect(done.outcome).toBe('completed');
    expect(lastResults(model).at(-1)).toMatchObject({ status: 'success', output: 'deployed web to eu-west' });
    expect(runs).toBe(2);
  });

  it('runs the call with the input the rule was decided on, read once', async () => {
    const inner = shellTools();
    const tools = withPermissionRules(inner, ruleSet([['bash', { 'rm *': 'deny' }]]));
    let reads = 0;
    const input = {
      get command() {
        reads += 1;
        return reads === 1 ? 'ls' : 'rm -rf /';
      },
    };
    const context = { assistantId: 'a', turnId: 't', iteration: 1, toolCallIndex: 0, signal: new AbortController().signal };
    const result = await tools.execute({ id: 'c1', name: 'bash', input }, context);
    expect(result).toMatchObject({ status: 'success', output: 'ran ls' });
    expect(inner.calls[0]!.input).toEqual({ command: 'ls' });
    const throwing = {
      get command(): string {
        throw new Error('hostile');
      },
    };
    expect(await tools.execute({ id: 'c2', name: 'bash', input: throwing }, context)).toMatchObject({ status: 'error', error: { code: 'invalid_input' } });
  });

  it('refuses an ask call where the turn cannot pause (no harness loop)', async () => {
    const tools = withPermissionRules(shellTools(), ruleSet([['bash', 'ask']]));
    const result = await tools.execute(
      { id: 'c1', name: 'bash', input: { command: 'ls' } },
      { assistantId: 'a', turnId: 't', iteration: 1, toolCallIndex: 0, signal: new AbortController().signal },
    );
    expect(result).toMatchObject({ status: 'error', error: { code: 'approval_unavailable', metadata: { permissionRule: { tool: 'bash', action: 'ask' } } } });
  });

  it('refuses a value that is not a registry, and malformed rules', () => {
    expect(() => withPermissionRules({} as never, ruleSet([]))).toThrow(HarnessConfigError);
    expect(() => withPermissionRules(shellTools(), { tools: new Map([['bash', 'sometimes']]) } as never)).toThrow(HarnessConfigError);
  });
});
