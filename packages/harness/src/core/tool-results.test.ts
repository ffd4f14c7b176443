import { describe, expect, it } from 'vitest';
import { plainTextToolResult } from '../shared/plain-tool-result.js';
import { normaliseToolResult } from './tool-results.js';

const call = { id: 'c1', name: 'add', input: {} };

describe('normaliseToolResult', () => {
  it('takes a text result made by the package as it is, pinned to the call', () => {
    const made = plainTextToolResult('other', 'other', '3');
    expect(Object.isFrozen(made)).toBe(true);
    expect(normaliseToolResult(call, made)).toEqual({ callId: 'c1', toolName: 'add', status: 'success', output: '3' });
  });

  it('checks a look-alike from outside: a Proxy of a made result is not one', () => {
    const made = plainTextToolResult('c1', 'add', '3');
    let reads = 0;
    const proxy = new Proxy(made, {
      get(target, key, receiver) {
        reads += 1;
        if (key === 'output') return 42;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const result = normaliseToolResult(call, proxy);
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('invalid_tool_result');
    expect(reads).toBeGreaterThan(0);
  });

  it('keeps the JSON of a plain result, and an object on a made result\'s prototype is not one', () => {
    const made = plainTextToolResult('c1', 'add', '3');
    expect(JSON.stringify(made)).toBe('{"callId":"c1","toolName":"add","status":"success","output":"3"}');
    const onPrototype = Object.create(Object.getPrototypeOf(made) as object) as Record<string, unknown>;
    Object.defineProperty(onPrototype, 'output', { get: () => 42, enumerable: true });
    Object.assign(onPrototype, { callId: 'c1', toolName: 'add', status: 'success' });
    expect(normaliseToolResult(call, onPrototype).error?.code).toBe('invalid_tool_result');
  });

  it('checks a plain look-alike object', () => {
    const lookAlike = Object.freeze({ callId: 'c1', toolName: 'add', status: 'success', output: '3', extra: () => 1 });
    expect(normaliseToolResult(call, lookAlike)).toEqual({ callId: 'c1', toolName: 'add', status: 'success', output: '3' });
    expect(normaliseToolResult(call, { callId: 'c1', toolName: 'add', status: 'success', output: 3 }).error?.code).toBe('invalid_tool_result');
  });
});
