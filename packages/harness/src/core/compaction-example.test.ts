import { describe, expect, it } from 'vitest';
import { runExample } from '../__fixtures__/run-example.js';

// examples/compaction run as its own Node process, offline, bundled from the sources.
describe('examples/compaction', () => {
  it('runs offline: compacts a stored history on demand, then a turn overflows, compacts once and completes', async () => {
    const stdout = await runExample('compaction');
    expect(stdout).toMatch(/compact: 40 → 6 messages, \d+ → \d+ bytes/);
    expect(stdout).toContain('kept: summary, pinned, user, assistant, user, assistant');
    expect(stdout).toContain('turn: completed / answer_finalized: Take the 9:30 ferry; the Bergen terminal is step-free.');
    expect(stdout).toMatch(/overflow at step 1: 35 messages summarised, \d+ → \d+ bytes/);
    expect(stdout).toContain('model calls: 3 (the refused step, the summary, the retry); requests sent: 3');
    expect(stdout).toContain('store for the next turn: 6 messages');
  });
});
