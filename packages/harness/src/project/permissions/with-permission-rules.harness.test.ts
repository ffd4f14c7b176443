import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createOpenAICompatibleModel } from '../../providers/openai-compatible/create-openai-compatible-model.js';
import { createFakeToolRegistry, createTurnInput } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { ruleSet } from './__fixtures__/rule-set.js';
import { withPermissionRules } from './with-permission-rules.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface ChatBody {
  tools?: { function: { name: string } }[];
  messages: { role: string; content: unknown; tool_call_id?: string }[];
}

async function start(replies: FakeServerScript[]) {
  server = await createFakeOpenAICompatibleServer({ replies });
  return { server, model: createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', retry: { initialDelayMs: 1, maxDelayMs: 2 } }) };
}

const tools = () =>
  createFakeToolRegistry({
    bash: ({ command }) => `ran ${String(command)}`,
    send_email: ({ to }) => `sent to ${String(to)}`,
    workspace_read: ({ path }) => `read ${String(path)}`,
  });

describe('permission rules against an OpenAI-compatible server', () => {
  it('never sends a denied tool to the provider, and the model sees a pattern deny as the tool message', async () => {
    const { server, model } = await start([
      { toolCalls: [{ id: 'call_rm', name: 'bash', arguments: { command: 'rm -rf build' } }, { id: 'call_ls', name: 'bash', arguments: { command: 'ls' } }] },
      { text: 'I may not delete the build folder; here is the listing.' },
    ]);
    const inner = tools();
    const rules = ruleSet([
      ['send_email', 'deny'],
      ['bash', { '*': 'allow', 'rm *': 'deny' }],
    ]);
    const result = await createHarness({ model, tools: withPermissionRules(inner, rules) }).runTurn(createTurnInput({ text: 'Clean up and list.' }));
    expect(result.outcome).toBe('completed');
    const [first, second] = server.requests.map((request) => request.body as ChatBody);
    expect(first!.tools!.map((tool) => tool.function.name)).toEqual(['bash', 'workspace_read']);
    expect(second!.tools!.map((tool) => tool.function.name)).toEqual(['bash', 'workspace_read']);
    const toolMessages = second!.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.tool_call_id)).toEqual(['call_rm', 'call_ls']);
    expect(JSON.parse(toolMessages[0]!.content as string)).toMatchObject({
      error: { code: 'permission_denied', message: expect.stringContaining('The permission rule bash "rm *": deny') as string },
    });
    expect(toolMessages[1]!.content).toBe('ran ls');
    expect(inner.calls.map((call) => call.input)).toEqual([{ command: 'ls' }]);
  });

  it('pauses an ask call with the rule, and after approval the provider sees the result once', async () => {
    const { server, model } = await start([
      { toolCalls: [{ id: 'call_push', name: 'bash', arguments: { command: 'git push origin main' } }] },
      { text: 'Pushed.' },
    ]);
    const inner = tools();
    const harness = createHarness({ model, tools: withPermissionRules(inner, ruleSet([['bash', { 'git push*': 'ask' }]])), continuationSecret: 'harness-test-secret-0123456789abcdef' });
    const paused = await harness.runTurn(createTurnInput());
    expect(paused).toMatchObject({ outcome: 'awaiting_approval', metadata: { approvalRequests: [{ id: 'call_push', details: { permissionRule: { tool: 'bash', pattern: 'git push*', action: 'ask' } } }] } });
    expect(server.requests).toHaveLength(1);
    const resumed = await harness.resumeTurn(paused.continuation!, { type: 'approval', decisions: { call_push: 'approved' } });
    expect(resumed).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Pushed.' } });
    expect(inner.calls).toHaveLength(1);
    // Paused, then run on resume: one tool call in the turn's usage, not two.
    expect(paused.usage.toolCalls).toBe(0);
    expect(resumed.usage.toolCalls).toBe(1);
    const toolMessages = (server.requests[1]!.body as ChatBody).messages.filter((message) => message.role === 'tool');
    expect(toolMessages).toEqual([{ role: 'tool', tool_call_id: 'call_push', content: 'ran git push origin main' }]);
  });
});
