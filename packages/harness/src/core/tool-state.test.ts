import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createHarness, createToolRegistry, defineTool, type HarnessContinuation, type HarnessToolState } from '../index.js';
import { createScriptedModel, createTurnInput } from '../testing/index.js';
import { createTurnToolState, toolStateBytesFor } from './internal/tool-state.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';

function stateTools(seen: unknown[]) {
  return createToolRegistry([
    defineTool({
      name: 'put',
      description: 'Store a value.',
      input: z.object({ key: z.string(), value: z.string() }),
      execute: ({ key, value }, { state }) => {
        const written = state!.set(key, value);
        return written.ok ? 'stored' : `refused: ${written.reason}`;
      },
    }),
    defineTool({
      name: 'read',
      description: 'Read a value.',
      input: z.object({ key: z.string() }),
      execute: ({ key }, { state, deadline }) => {
        seen.push({ value: state!.get(key), hasDeadline: typeof deadline === 'number' });
        return 'read';
      },
    }),
    defineTool({ name: 'danger', description: 'Needs approval.', input: z.object({}), requiresApproval: true, execute: () => 'done' }),
  ]);
}

describe('tool state', () => {
  it('is sealed into the continuation and seen by the resumed turn in a new harness', async () => {
    const first = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'c1', name: 'put', input: { key: '__proto__', value: 'kept' } }] },
        { type: 'tool_request', calls: [{ id: 'c2', name: 'danger', input: {} }] },
      ]),
      tools: stateTools([]),
      continuationSecret: secret,
    });
    const paused = await first.runTurn(createTurnInput({ text: 'go' }));
    expect(paused.outcome).toBe('awaiting_approval');
    const state = paused.continuation!.state;
    expect(state.mode === 'loop' ? state.toolState : undefined).toEqual([{ key: '__proto__', value: 'kept' }]);

    const seen: unknown[] = [];
    const second = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'c3', name: 'read', input: { key: '__proto__' } }] },
        { type: 'final_answer', text: 'ok' },
      ]),
      tools: stateTools(seen),
      continuationSecret: secret,
    });
    const stored = JSON.parse(JSON.stringify(paused.continuation)) as HarnessContinuation;
    const resumed = await second.resumeTurn(stored, { type: 'approval', decisions: { c2: 'approved' } });
    expect(resumed.outcome).toBe('completed');
    expect(seen).toEqual([{ value: 'kept', hasDeadline: true }]);
  });

  it('carries restored state into the next continuation when no tool of the resumed run touches it', async () => {
    const first = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'c1', name: 'put', input: { key: 'k', value: 'v' } }] },
        { type: 'tool_request', calls: [{ id: 'c2', name: 'danger', input: {} }] },
      ]),
      tools: stateTools([]),
      continuationSecret: secret,
    });
    const paused = await first.runTurn(createTurnInput({ text: 'go' }));
    const second = createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c3', name: 'danger', input: {} }] }]),
      tools: stateTools([]),
      continuationSecret: secret,
    });
    const again = await second.resumeTurn(paused.continuation!, { type: 'approval', decisions: { c2: 'rejected' } });
    expect(again.outcome).toBe('awaiting_approval');
    const state = again.continuation!.state;
    expect(state.mode === 'loop' ? state.toolState : undefined).toEqual([{ key: 'k', value: 'v' }]);
  });

  it('leaves the continuation without toolState when no tool wrote any', async () => {
    const harness = createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'c1', name: 'danger', input: {} }] }]),
      tools: stateTools([]),
      continuationSecret: secret,
    });
    const paused = await harness.runTurn(createTurnInput({ text: 'go' }));
    expect(paused.continuation?.state).not.toHaveProperty('toolState');
  });

  it('refuses writes past its bound, which is a quarter of maxContinuationBytes', async () => {
    const harness = createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'c1', name: 'put', input: { key: 'big', value: 'x'.repeat(3000) } }] },
        { type: 'final_answer', text: 'ok' },
      ]),
      tools: stateTools([]),
      limits: { maxContinuationBytes: 8192 },
    });
    const result = await harness.runTurn(createTurnInput({ text: 'go' }));
    const toolResult = result.transcript.find((item) => item.type === 'tool_result');
    expect(toolResult?.type === 'tool_result' ? toolResult.result.output : '').toMatch(/^refused: .*2048 bytes/);
    expect(toolStateBytesFor(10_000_000)).toBe(65_536);
  });
});

describe('createTurnToolState', () => {
  it('stores copies, deletes with undefined and counts bytes', () => {
    const state: HarnessToolState = createTurnToolState(100);
    const value = { items: ['a'] };
    expect(state.set('k', value)).toEqual({ ok: true });
    value.items.push('b');
    const read = state.get('k') as { items: string[] };
    read.items.push('c');
    expect(state.get('k')).toEqual({ items: ['a'] });
    expect(state.usedBytes()).toBe(1 + JSON.stringify({ items: ['a'] }).length);
    expect(state.set('k', undefined)).toEqual({ ok: true });
    expect(state.usedBytes()).toBe(0);
    expect(state.get('k')).toBeUndefined();
  });

  it('refuses values that are not plain JSON, and keys that are empty', () => {
    const state = createTurnToolState(1000);
    const hostile = {
      get boom(): string {
        throw new Error('getter');
      },
    };
    expect(state.set('k', hostile).ok).toBe(false);
    expect(state.set('k', () => 1).ok).toBe(false);
    expect(state.set('', 1).ok).toBe(false);
    expect(state.usedBytes()).toBe(0);
  });
});
