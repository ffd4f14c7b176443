import { describe, expect, it } from 'vitest';
import { runExample } from '../../__fixtures__/run-example.js';

// examples/command-output run as its own Node process, offline, bundled from the sources.
describe('examples/command-output', () => {
  it('reduces a 60 000-line test run to its failure, recovers the raw bytes, and feeds the bash tool the reduction', async () => {
    const stdout = await runExample('command-output');
    expect(stdout).toMatch(/raw: \d+ bytes, 60008 lines; reduced: \d+ bytes, exit code 1/);
    expect(stdout).toContain('    |   × cart > computes the total 6ms');
    expect(stdout).toContain('    |     → expected 3 to be 4');
    expect(stdout).toContain('    | AssertionError: expected 3 to be 4');
    expect(stdout).toContain('    |       Tests  1 failed | 60000 passed (60001)');
    expect(stdout).toMatch(/recovered \d+ bytes of stdout, identical: true/);
    expect(stdout).toContain('again into the same directory: target_exists');
    expect(stdout).toMatch(/bash tool: the model saw \d+ bytes, exit code 1, artifact [0-9a-f]{12}…/);
    expect(stdout).toContain('the failure was in it: true');
  });
});
