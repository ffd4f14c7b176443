import { describe, expect, it } from 'vitest';
import { runExample } from '../../__fixtures__/run-example.js';

// examples/context-packets run as its own Node process, offline, bundled from the sources.
describe('examples/context-packets', () => {
  it('builds a packet under a budget, reports a required selection that cannot fit, and serves the packet as a tool', async () => {
    const stdout = await runExample('context-packets');
    expect(stdout).toMatch(/^packet: \d+ of 2048 bytes, complete: false$/m);
    expect(stdout).toMatch(/^ {2}took rules: \/AGENTS\.md lines 1–2 of 2, sha256 [0-9a-f]{12}…$/m);
    expect(stdout).toMatch(/^ {2}took source: \/src\/example\.ts lines 10–40 of 40 \(range clamped\)/m);
    expect(stdout).toContain('  left out design: over_budget');
    expect(stdout).toMatch(/^ {2}took changes: \/CHANGELOG\.md/m);
    expect(stdout).toMatch(/^error: over_budget — design needs \d+ bytes, budget 2048, over by \d+$/m);
    expect(stdout).toMatch(/^tool result: \d+ bytes \(budget 1024\), took rules, source, left out design$/m);
    expect(stdout).toContain('outcome: completed — step10 is defined in /src/example.ts line 10.');
  });
});
