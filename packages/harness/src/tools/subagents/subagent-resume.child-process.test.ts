import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { composeToolRegistries, createHarness, type HarnessResult } from '../../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../../testing/index.js';
import { createSubagentToolRegistry } from './index.js';
import { runNodeScript } from '../../__fixtures__/run-node-script.js';

const script = fileURLToPath(new URL('../../__fixtures__/resume-subagent-in-child.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../../dist/index.js', import.meta.url));

describe('a subagent approval pause resumed in another process', () => {
  it('resumes the subagent where it stopped and completes the parent', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/index.js is missing').toBe(true);
    const secret = 'child-process-secret-0123456789abcdef';
    const base = createFakeToolRegistry({ send_email: { description: 'Send an email', requiresApproval: true, execute: () => 'never here' } });
    const paused = await createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 't1', name: 'task', input: { subagent: 'mailer', prompt: 'Email Ada.' } }] }]),
      tools: composeToolRegistries(
        base,
        createSubagentToolRegistry({
          model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'm1', name: 'send_email', input: { to: 'ada@example.com' } }] }]),
          tools: base,
          subagents: [{ name: 'mailer', description: 'Sends email.', systemPrompt: 'You send email.', tools: ['send_email'] }],
        }),
      ),
      continuationSecret: secret,
    }).runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    expect(base.calls).toHaveLength(0);

    const child = await runNodeScript(script, JSON.stringify({ continuation: paused.continuation, secret, decisions: { 't1/m1': 'approved' } }));
    expect(child.stderr).toBe('');
    expect(child.code).toBe(0);
    const { result, toolCalls } = JSON.parse(child.stdout) as { result: HarnessResult; toolCalls: unknown[] };
    expect(result.outcome).toBe('completed');
    expect(result.assistantMessage?.text).toBe('parent: mailer: sent to ada@example.com');
    expect(toolCalls).toHaveLength(1);
  });
});
