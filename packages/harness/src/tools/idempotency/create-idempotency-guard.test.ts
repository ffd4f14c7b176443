import { describe, expect, it } from 'vitest';
import { createHarness, createIdempotencyGuard, HarnessConfigError, IDEMPOTENT_REPLAY_NOTE, type HarnessResult } from '../../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';
const call = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_request' as const, calls: [{ id, name, input }] });

function results(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

function counted() {
  const runs: string[] = [];
  let failures = 1;
  const registry = createFakeToolRegistry({
    charge: ({ amount }) => {
      runs.push(`charge ${String(amount)}`);
      return `charged ${String(amount)}`;
    },
    flaky: () => {
      runs.push('flaky');
      if (failures-- > 0) throw new Error('down');
      return 'up';
    },
    confirm: { description: 'Needs approval', requiresApproval: true, execute: () => 'confirmed' },
  });
  return { registry, runs };
}

describe('createIdempotencyGuard', () => {
  it('returns the first result for a repeated call (same tool, same canonical input), with a note', async () => {
    const { registry, runs } = counted();
    const harness = createHarness({
      model: createScriptedModel([
        call('c1', 'charge', { amount: 5, currency: 'EUR' }),
        call('c2', 'charge', { currency: 'EUR', amount: 5 }),
        call('c3', 'charge', { amount: 6, currency: 'EUR' }),
        { type: 'final_answer', text: 'ok' },
      ]),
      tools: createIdempotencyGuard(registry),
    });
    const [first, repeated, other] = results(await harness.runTurn(createTurnInput({ text: 'pay' })));
    expect(runs).toEqual(['charge 5', 'charge 6']);
    expect(first?.output).toBe('charged 5');
    expect(repeated).toMatchObject({ callId: 'c2', output: `charged 5\n\n${IDEMPOTENT_REPLAY_NOTE}`, metadata: { idempotentReplay: true, firstCallId: 'c1' } });
    expect(other?.output).toBe('charged 6');
  });

  it('remembers across an approval pause resumed by another harness, and never remembers failures', async () => {
    const first = counted();
    const paused = await createHarness({
      model: createScriptedModel([call('c1', 'charge', { amount: 5 }), call('c2', 'confirm', {})]),
      tools: createIdempotencyGuard(first.registry),
      continuationSecret: secret,
    }).runTurn(createTurnInput({ text: 'pay' }));
    expect(paused.outcome).toBe('awaiting_approval');

    const second = counted();
    const resumed = await createHarness({
      model: createScriptedModel([call('c3', 'charge', { amount: 5 }), call('c4', 'flaky', {}), call('c5', 'flaky', {}), { type: 'final_answer', text: 'ok' }]),
      tools: createIdempotencyGuard(second.registry),
      continuationSecret: secret,
      hooks: { onToolError: () => 'continue' },
    }).resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), { type: 'approval', decisions: { c2: 'approved' } });
    expect(resumed.outcome).toBe('completed');
    expect(second.runs).toEqual(['flaky', 'flaky']);
    expect(results(resumed).find((result) => result.callId === 'c3')?.metadata).toMatchObject({ idempotentReplay: true });
  });

  it('refuses what is not a registry', () => {
    expect(() => createIdempotencyGuard({} as never)).toThrow(HarnessConfigError);
  });
});
