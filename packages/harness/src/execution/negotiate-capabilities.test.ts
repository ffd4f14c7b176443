import { describe, expect, it } from 'vitest';
import { negotiateCapabilities, type ExecutionCapabilities, type ExecutionRequest } from '../index.js';

const none: ExecutionCapabilities = {
  toolUse: 'none',
  structuredToolCalls: false,
  continuationSupport: 'none',
  approvalInterrupts: 'none',
  traceDepth: 'minimal',
  attachments: false,
};
const request: ExecutionRequest = {
  assistantId: 'a',
  turnId: 't',
  message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00Z' },
  instructions: { systemPrompt: 'be brief' },
};

describe('negotiateCapabilities', () => {
  it('supports a plain request without reasons', () => {
    expect(negotiateCapabilities(none, request)).toEqual({
      supported: true,
      degraded: false,
      reasons: [],
      effectiveCapabilities: none,
    });
  });

  it('blocks what is required and warns about what is preferred', () => {
    const result = negotiateCapabilities(none, {
      ...request,
      tools: [{ name: 'lookup' }],
      message: { ...request.message, attachments: [{ id: 'f', type: 'image' }] },
      requirements: {
        structuredToolCalls: 'required',
        continuationSupport: 'preferred',
        approvalInterrupts: 'required',
        traceDepth: 'detailed',
      },
    });
    expect(result.supported).toBe(false);
    expect(result.degraded).toBe(true);
    expect(result.reasons.map((reason) => [reason.code, reason.severity])).toEqual([
      ['tool_use_unsupported', 'blocking'],
      ['structured_tool_calls_unsupported', 'blocking'],
      ['continuation_unsupported', 'warning'],
      ['approval_interrupt_unsupported', 'blocking'],
      ['attachments_unsupported', 'blocking'],
      ['trace_depth_reduced', 'warning'],
    ]);
  });

  it('blocks tools when the request forbids tool use, and accepts opaque resume as continuation support', () => {
    const capable: ExecutionCapabilities = { ...none, toolUse: 'native-iterative', continuationSupport: 'opaque-resume' };
    const forbidden = negotiateCapabilities(capable, { ...request, tools: [{ name: 'x' }], requirements: { toolUse: 'forbidden' } });
    expect(forbidden.reasons).toEqual([expect.objectContaining({ code: 'tool_use_unsupported', severity: 'blocking' })]);
    const resumable = negotiateCapabilities(capable, { ...request, requirements: { continuationSupport: 'required' } });
    expect(resumable.supported).toBe(true);
  });

  it('blocks history as history_unsupported unless the backend declares history: true', () => {
    const withHistory: ExecutionRequest = { ...request, history: [{ role: 'user', text: 'earlier' }, { role: 'assistant', text: 'reply' }] };
    expect(negotiateCapabilities(none, withHistory).reasons).toEqual([
      { code: 'history_unsupported', severity: 'blocking', message: expect.stringContaining('history') as string },
    ]);
    expect(negotiateCapabilities({ ...none, history: false }, withHistory).supported).toBe(false);
    expect(negotiateCapabilities({ ...none, history: true }, withHistory)).toMatchObject({ supported: true, reasons: [] });
    expect(negotiateCapabilities(none, { ...request, history: [] }).supported).toBe(true);
  });

  it('counts attachments of history messages, and reads a malformed history defensively', () => {
    const image = { id: 'img', type: 'image', url: 'https://example.test/a.png' };
    const result = negotiateCapabilities({ ...none, history: true }, { ...request, history: [{ role: 'user', text: 'see', attachments: [image] }] });
    expect(result.reasons.map((reason) => reason.code)).toEqual(['attachments_unsupported']);
    const odd = { ...request, history: 'not an array' } as unknown as ExecutionRequest;
    expect(negotiateCapabilities(none, odd).supported).toBe(true);
    const holes = { ...request, history: [null] } as unknown as ExecutionRequest;
    expect(negotiateCapabilities(none, holes).reasons.map((reason) => reason.code)).toEqual(['history_unsupported']);
  });

  it('returns a copy of the capabilities that callers cannot use to mutate the adapter', () => {
    const capabilities: ExecutionCapabilities = { ...none, notes: ['a'] };
    const result = negotiateCapabilities(capabilities, request);
    result.effectiveCapabilities.notes?.push('b');
    expect(capabilities.notes).toEqual(['a']);
  });
});
