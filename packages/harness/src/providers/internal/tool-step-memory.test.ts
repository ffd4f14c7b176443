import { describe, expect, it } from 'vitest';
import type { HarnessToolCall } from '../../shared/types/tools.js';
import { createToolStepMemory } from './tool-step-memory.js';

const call = (id: string, input: Record<string, unknown> = { city: 'Oslo' }, name = 'lookup_weather'): HarnessToolCall => ({ id, name, input });

describe('createToolStepMemory', () => {
  it('finds a step again only by exactly the same calls (ids, names, inputs, order)', () => {
    const memory = createToolStepMemory<string>();
    memory.remember([call('a'), call('b')], 'state');
    expect(memory.recall([call('a'), call('b')])).toBe('state');
    expect(memory.recall([call('b'), call('a')])).toBeUndefined();
    expect(memory.recall([call('a')])).toBeUndefined();
    expect(memory.recall([call('a', { city: 'Bergen' }), call('b')])).toBeUndefined();
    expect(memory.recall([call('a', { city: 'Oslo' }, 'other'), call('b')])).toBeUndefined();
    expect(memory.recall([])).toBeUndefined();
  });

  it('treats hostile ids as plain text', () => {
    const memory = createToolStepMemory<string>();
    memory.remember([call('__proto__')], 'proto');
    expect(memory.recall([call('__proto__')])).toBe('proto');
    expect(memory.recall([call('constructor')])).toBeUndefined();
  });

  it('forgets the oldest step beyond its limit; remembering again refreshes a step', () => {
    const memory = createToolStepMemory<number>({ maxSteps: 2 });
    memory.remember([call('1')], 1);
    memory.remember([call('2')], 2);
    memory.remember([call('1')], 11);
    memory.remember([call('3')], 3);
    expect(memory.recall([call('2')])).toBeUndefined();
    expect(memory.recall([call('1')])).toBe(11);
    expect(memory.recall([call('3')])).toBe(3);
  });

  it('keeps the total weight under its cap and never keeps a step heavier than the cap', () => {
    const memory = createToolStepMemory<string>({ maxWeight: 10, weigh: (value) => value.length });
    memory.remember([call('1')], 'aaaa');
    memory.remember([call('2')], 'bbbb');
    memory.remember([call('3')], 'cccc');
    expect(memory.recall([call('1')])).toBeUndefined();
    expect(memory.recall([call('2')])).toBe('bbbb');
    expect(memory.recall([call('3')])).toBe('cccc');
    memory.remember([call('4')], 'x'.repeat(11));
    expect(memory.recall([call('4')])).toBeUndefined();
    expect(memory.recall([call('3')])).toBe('cccc');
  });

  it('ignores steps whose inputs cannot be serialized', () => {
    const memory = createToolStepMemory<string>();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    memory.remember([call('a', cyclic)], 'state');
    expect(memory.recall([call('a', cyclic)])).toBeUndefined();
  });
});
