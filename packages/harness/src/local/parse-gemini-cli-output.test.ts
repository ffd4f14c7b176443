// The Gemini CLI parser on output recorded from the real `gemini` 0.61.0.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture } from './__fixtures__/test-helpers.js';
import { parseGeminiCliOutput } from './parse-gemini-cli-output.js';

const recorded = (name: string) => readFileSync(fixture(`recorded/${name}`), 'utf8');

describe('parseGeminiCliOutput (recorded real output)', () => {
  it('reads the pretty-printed JSON answer, session id and token stats', () => {
    expect(parseGeminiCliOutput(recorded('gemini-success.json'), { exitCode: 0 })).toMatchObject({
      status: 'completed',
      text: 'PONG from fake',
      usage: { inputTokens: 12, outputTokens: 5 },
      continuation: { kind: 'gemini-cli.session', continuationId: expect.any(String) },
    });
  });

  it('reads the error report after the stack trace on stderr (exit 144)', () => {
    expect(parseGeminiCliOutput('', { stderr: recorded('gemini-http-400.stderr.txt'), exitCode: 144 })).toMatchObject({
      status: 'failed',
      error: { message: 'Gemini CLI failed: fake injected HTTP 400', retryable: false, metadata: { status: 400 } },
      continuation: { continuationId: expect.any(String) },
    });
  });

  it('reads a 429 report as retryable', () => {
    const stderr = `noise\n${JSON.stringify({ session_id: 's', error: { type: 'Error', message: 'Resource exhausted', code: 429 } }, null, 2)}\n`;
    expect(parseGeminiCliOutput('', { stderr, exitCode: 173 })?.error?.retryable).toBe(true);
  });

  it('maps the turn-limit exit code (53) to deferred and unknown exits to null', () => {
    expect(parseGeminiCliOutput('', { exitCode: 53 })).toMatchObject({ status: 'deferred' });
    expect(parseGeminiCliOutput('', { exitCode: 1 })).toBeNull();
    expect(parseGeminiCliOutput('')).toBeNull();
  });
});
