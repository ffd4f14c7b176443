import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../testing/index.js';
import { runNodeScript } from '../__fixtures__/run-node-script.js';

const script = fileURLToPath(new URL('./__fixtures__/resume-in-child.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

describe('resumeTurn in another process', () => {
  it('finishes an approval turn created here, from JSON, in a child process', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/index.js is missing').toBe(true);
    const secret = 'child-process-secret-0123456789abcdef';
    const tools = createFakeToolRegistry({ send_email: { requiresApproval: true, execute: () => 'never' } });
    const paused = await createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'mail-1', name: 'send_email', input: { to: 'ada@example.com' } }] },
      ]),
      tools,
      continuationSecret: secret,
    }).runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    expect(tools.calls).toHaveLength(0);

    const child = await runNodeScript(script, JSON.stringify({ continuation: paused.continuation, secret }));
    expect(child.stderr).toBe('');
    expect(child.code).toBe(0);
    const { result, toolCalls } = JSON.parse(child.stdout) as {
      result: { outcome: string; assistantMessage?: { text: string }; turnId: string };
      toolCalls: unknown[];
    };
    expect(result.outcome).toBe('completed');
    expect(result.turnId).toBe('turn-test');
    expect(result.assistantMessage?.text).toBe('Done after sent to ada@example.com');
    expect(toolCalls).toHaveLength(1);
  });
});
