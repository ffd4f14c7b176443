import { describe, expect, it } from 'vitest';
import { AnswerText, capAnswer, capTextDeltas, fitAnswer, MAX_ANSWER_CHARS } from './answer-cap.js';
import type { ExecutionStreamEvent } from './types.js';

describe('the answer cap', () => {
  it('is 4 MiB of characters', () => {
    expect(MAX_ANSWER_CHARS).toBe(4 * 1024 * 1024);
  });

  it('fits what is left and never cuts a surrogate pair in half', () => {
    expect(fitAnswer('abc', MAX_ANSWER_CHARS - 2)).toBe('ab');
    expect(fitAnswer('abc', MAX_ANSWER_CHARS)).toBe('');
    expect(fitAnswer('abc', MAX_ANSWER_CHARS + 5)).toBe('');
    expect(fitAnswer('a😀b', MAX_ANSWER_CHARS - 2)).toBe('a');
    expect(fitAnswer('a😀b', MAX_ANSWER_CHARS - 3)).toBe('a😀');
  });

  it('caps a whole text and says whether it cut', () => {
    expect(capAnswer('short')).toEqual({ text: 'short', truncated: false });
    const long = capAnswer('x'.repeat(MAX_ANSWER_CHARS + 10));
    expect(long.text.length).toBe(MAX_ANSWER_CHARS);
    expect(long.truncated).toBe(true);
  });

  it('collects pieces up to the cap and drops the rest', () => {
    const answer = new AnswerText();
    const piece = 'y'.repeat(1_000_000);
    const kept = Array.from({ length: 6 }, () => answer.append(piece).length);
    expect(kept).toEqual([1_000_000, 1_000_000, 1_000_000, 1_000_000, MAX_ANSWER_CHARS - 4_000_000, 0]);
    expect(answer.length).toBe(MAX_ANSWER_CHARS);
    expect(answer.truncated).toBe(true);
    expect(answer.text()).toBe('y'.repeat(MAX_ANSWER_CHARS));
    expect(new AnswerText().truncated).toBe(false);
  });

  it('cuts text deltas at the cap in total and lets other events through', () => {
    const cap = capTextDeltas();
    const big = { type: 'text_delta' as const, text: 'z'.repeat(MAX_ANSWER_CHARS - 1) };
    expect(cap(big)).toBe(big);
    expect(cap({ type: 'text_delta', text: 'abc' })).toEqual({ type: 'text_delta', text: 'a' });
    expect(cap({ type: 'text_delta', text: 'more' })).toBeUndefined();
    const plan = { type: 'plan_update' as const, entries: [] };
    expect(cap(plan)).toBe(plan);
    const malformed = { type: 'text_delta', text: 42 } as unknown as ExecutionStreamEvent;
    expect(cap(malformed)).toBe(malformed);
    expect(cap(null as unknown as ExecutionStreamEvent)).toBeNull();
  });
});
