import { describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { executionRequest } from './__fixtures__/test-helpers.js';
import { checkFlagValue, productToolsReasons, sessionContinuation, stateNumber } from './local-cli-preset.js';

describe('preset helpers', () => {
  it('continues a matching session, starts a fresh one, and refuses foreign or flag-like ids', () => {
    expect(sessionContinuation('codex', { continuationId: 't1', state: { n: 1 } })).toEqual({ kind: 'codex.session', continuationId: 't1', state: { n: 1 } });
    expect(sessionContinuation('codex', undefined)).toBeUndefined();
    expect(sessionContinuation('claude-code', undefined, () => 'fresh')).toEqual({ kind: 'claude-code.session', continuationId: 'fresh', state: {} });
    expect(() => sessionContinuation('codex', { kind: 'opencode.session', continuationId: 'x' })).toThrow(/opencode.session, not a codex.session/);
    expect(() => sessionContinuation('codex', { continuationId: '--last' })).toThrow(/not valid/);
    expect(() => sessionContinuation('codex', { continuationId: 'a b' })).toThrow(/not valid/);
  });

  it('reads finite numbers from continuation state only', () => {
    expect(stateNumber({ state: { a: 1, b: 'x', c: Number.NaN } }, 'a')).toBe(1);
    expect(stateNumber({ state: { b: 'x' } }, 'b')).toBeUndefined();
    expect(stateNumber(undefined, 'a')).toBeUndefined();
  });

  it('warns about unbridged request tools, blocking only when tool use is required', () => {
    expect(productToolsReasons(executionRequest('hi'), 'X')).toEqual([]);
    const tools = [{ name: 'a', description: 'a' }];
    expect(productToolsReasons(executionRequest('hi', { tools }), 'X')[0]?.severity).toBe('warning');
    expect(productToolsReasons(executionRequest('hi', { tools, requirements: { toolUse: 'required' } }), 'X')[0]?.severity).toBe('blocking');
  });

  it('rejects flag-like option values', () => {
    expect(checkFlagValue('sonnet', 'model', 'X')).toBe('sonnet');
    expect(() => checkFlagValue('-x', 'model', 'X')).toThrow(HarnessConfigError);
  });
});
