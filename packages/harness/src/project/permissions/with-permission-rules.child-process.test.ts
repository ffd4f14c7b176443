import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHarness, type HarnessResult } from '../../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../../testing/index.js';
import { runNodeScript } from '../../__fixtures__/run-node-script.js';
import { ruleSet } from './__fixtures__/rule-set.js';
import { withPermissionRules } from './with-permission-rules.js';

const script = fileURLToPath(new URL('./__fixtures__/resume-permission-in-child.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../../dist/index.js', import.meta.url));
const secret = 'permission-child-secret-0123456789abcdef';
const askPush = [['bash', [['git push*', 'ask']]]] as const;

async function pauseOnAsk() {
  const tools = createFakeToolRegistry({ bash: () => 'never here' });
  const paused = await createHarness({
    model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'push-1', name: 'bash', input: { command: 'git push origin main' } }] }]),
    tools: withPermissionRules(tools, ruleSet([['bash', { 'git push*': 'ask' }]])),
    continuationSecret: secret,
  }).runTurn(createTurnInput());
  expect(paused.outcome).toBe('awaiting_approval');
  expect(paused.metadata?.approvalRequests).toMatchObject([{ id: 'push-1', details: { permissionRule: { tool: 'bash', pattern: 'git push*', action: 'ask' } } }]);
  expect(tools.calls).toEqual([]);
  return paused;
}

async function resumeInChild(paused: HarnessResult, decisions: Record<string, string>, rules: readonly unknown[]) {
  const child = await runNodeScript(script, JSON.stringify({ continuation: paused.continuation, secret, decisions, rules }));
  expect(child.stderr).toBe('');
  expect(child.code).toBe(0);
  return JSON.parse(child.stdout) as { result: HarnessResult; toolCalls: unknown[] };
}

describe('an ask rule resumed in another process', () => {
  it('runs the approved call exactly once there', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/index.js is missing').toBe(true);
    const { result, toolCalls } = await resumeInChild(await pauseOnAsk(), { 'push-1': 'approved' }, askPush);
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran git push origin main' } });
    expect(toolCalls).toEqual([{ id: 'push-1', name: 'bash', input: { command: 'git push origin main' } }]);
  });

  it("applies the resuming harness's rules: a call they now deny does not run, approved or not", async () => {
    const { result, toolCalls } = await resumeInChild(await pauseOnAsk(), { 'push-1': 'approved' }, [['bash', [['git push*', 'deny']]]]);
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'error: permission_denied' } });
    expect(toolCalls).toEqual([]);
  });

  it('never runs a rejected call', async () => {
    const { result, toolCalls } = await resumeInChild(await pauseOnAsk(), { 'push-1': 'rejected' }, askPush);
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'error: approval_rejected' } });
    expect(toolCalls).toEqual([]);
  });
});
