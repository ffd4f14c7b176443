import { describe, expect, it } from 'vitest';
import { runExample } from '../__fixtures__/run-example.js';

// examples/structured-output run as its own Node process, offline, bundled from the sources.
describe('examples/structured-output', () => {
  it('runs offline: a corrected answer, then a streamed per-turn schema through the provider, partials first', async () => {
    const stdout = await runExample('structured-output');
    expect(stdout).toContain('The model is asked for "structured_output" with this JSON Schema:');
    expect(stdout).toMatch(/The model is told: The answer does not match the output schema: days: /);
    expect(stdout).toContain('turn 1: completed / answer_finalized after 2 model calls');
    expect(stdout).toContain('Oslo for 3 days: Opera house, Vigeland park');
    expect(stdout).toContain('turn 2: partial: 1 × rain jacket, ? × wool socks');
    expect(stdout).toContain('turn 2: partial: 1 × rain jacket, 3 × wool socks');
    expect(stdout).toMatch(/turn 2: \d+ output_partial events, then the output event: 1 × rain jacket, 3 × wool socks/);
    expect(stdout).toContain('turn 2: completed / answer_finalized');
  });
});
