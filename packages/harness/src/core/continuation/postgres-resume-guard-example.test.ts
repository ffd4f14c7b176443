import { describe, expect, it } from 'vitest';
import { runExample } from '../../__fixtures__/run-example.js';

// examples/postgres-resume-guard run as its own Node process, offline, on PGlite.
describe('examples/postgres-resume-guard', () => {
  it('resumes a continuation once when two machines get the approval, and shares memory through Postgres', async () => {
    const stdout = await runExample('postgres-resume-guard', { external: ['@electric-sql/pglite'] });
    expect(stdout).toContain('outcome: awaiting_approval');
    expect(stdout).toMatch(/machine [BC]: completed \/ answer_finalized — Done\. \(\[user\.cuisine\] Likes Nordic food\.\)/);
    expect(stdout).toMatch(/machine [BC]: failed \/ continuation_invalid/);
    expect(stdout).toContain('bookings made: 1');
    expect(stdout).toContain('claims stored: 1; remembered: user.cuisine = Likes Nordic food.');
  }, 120_000);
});
