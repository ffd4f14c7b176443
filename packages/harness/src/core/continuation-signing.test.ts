import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHarness, type HarnessConfig, type HarnessContinuation } from '../index.js';
import { APPROVE_MAIL, pauseForApproval, resumingHarness } from './__fixtures__/approval-pause.js';
import { runNodeScript } from '../__fixtures__/run-node-script.js';

const script = fileURLToPath(new URL('./__fixtures__/resume-in-child.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** Resumes `continuation` in a fresh Node process (built package), with `secret` if given, sent over stdin. */
async function resumeInChild(continuation: HarnessContinuation, secret?: string): Promise<{ result: { outcome: string; stopReason: string; metadata?: { error?: { message: string } } }; toolCalls: unknown[] }> {
  const { code, stdout, stderr } = await runNodeScript(script, JSON.stringify({ continuation, secret }));
  if (code !== 0 || stderr !== '') throw new Error(`child exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as never;
}

const noSecret: Partial<HarnessConfig> = { continuationSecret: undefined };
const OLD = 'previous-secret-0123456789abcdef';
const NEW = 'current-secret-0123456789abcdefgh';

describe('continuations are signed by default (issue 18)', () => {
  it('signs with a per-process key when no secret is configured, and resumes in another harness of this process', async () => {
    const continuation = await pauseForApproval(noSecret);
    expect(continuation.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { harness, tools } = resumingHarness(noSecret);
    expect((await harness.resumeTurn(continuation, APPROVE_MAIL)).outcome).toBe('completed');
    expect(tools.calls).toHaveLength(1);
  });

  it('refuses it in another process, with a reason that says to configure the same continuationSecret', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/index.js is missing').toBe(true);
    const continuation = await pauseForApproval(noSecret);
    const { result, toolCalls } = await resumeInChild(continuation);
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid' });
    expect(result.metadata?.error?.message).toMatch(/No continuationSecret is configured.*another process.*Configure the same continuationSecret/);
    expect(toolCalls).toEqual([]);
  });

  it('refuses an altered per-process continuation, and an unsigned one with the way out named', async () => {
    const continuation = await pauseForApproval(noSecret);
    const { harness, tools } = resumingHarness(noSecret);
    const altered = JSON.parse(JSON.stringify(continuation)) as { state: { pendingCalls: { input: { to: string } }[] } };
    altered.state.pendingCalls[0]!.input.to = 'mallory@example.com';
    expect((await harness.resumeTurn(altered, APPROVE_MAIL)).metadata?.error?.message).toMatch(/does not match this process/);
    const { signature: _signature, ...unsigned } = continuation;
    const refused = await harness.resumeTurn(unsigned, APPROVE_MAIL);
    expect(refused.stopReason).toBe('continuation_invalid');
    expect(refused.metadata?.error?.message).toMatch(/not signed.*same continuationSecret.*unsignedContinuations: 'allow'/);
    expect(tools.calls).toEqual([]);
  });

  describe("unsignedContinuations: 'allow'", () => {
    const allow: Partial<HarnessConfig> = { continuationSecret: undefined, unsignedContinuations: 'allow' };

    it('seals unsigned continuations without a secret and resumes them, even changed (the documented risk)', async () => {
      const continuation = await pauseForApproval(allow);
      expect(continuation.signature).toBeUndefined();
      const changed = JSON.parse(JSON.stringify(continuation)) as { state: { pendingCalls: { input: { to: string } }[] } };
      changed.state.pendingCalls[0]!.input.to = 'mallory@example.com';
      const { harness, tools } = resumingHarness(allow);
      expect((await harness.resumeTurn(changed, APPROVE_MAIL)).outcome).toBe('completed');
      expect(tools.calls[0]?.input).toEqual({ to: 'mallory@example.com' });
    });

    it('is refused by a harness without the opt-out', async () => {
      const continuation = await pauseForApproval(allow);
      const { harness, tools } = resumingHarness(noSecret);
      expect((await harness.resumeTurn(continuation, APPROVE_MAIL)).metadata?.error?.message).toMatch(/not signed/);
      expect(tools.calls).toEqual([]);
    });

    it('with a secret still signs, accepts unsigned (older) continuations, and refuses a wrong signature', async () => {
      const withSecret: Partial<HarnessConfig> = { continuationSecret: NEW, unsignedContinuations: 'allow' };
      expect((await pauseForApproval(withSecret)).signature).toBeDefined();
      const legacy = await pauseForApproval(allow);
      expect((await resumingHarness(withSecret).harness.resumeTurn(legacy, APPROVE_MAIL)).outcome).toBe('completed');
      const foreign = await pauseForApproval({ continuationSecret: OLD });
      expect((await resumingHarness(withSecret).harness.resumeTurn(foreign, APPROVE_MAIL)).stopReason).toBe('continuation_invalid');
    });
  });

  describe('rotation: continuationSecret: [current, previous]', () => {
    it('resumes continuations signed with the previous secret and signs new ones with the current', async () => {
      const old = await pauseForApproval({ continuationSecret: OLD });
      const rotated = resumingHarness({ continuationSecret: [NEW, OLD] });
      expect((await rotated.harness.resumeTurn(old, APPROVE_MAIL)).outcome).toBe('completed');

      const fresh = await pauseForApproval({ continuationSecret: [NEW, OLD] });
      expect((await resumingHarness({ continuationSecret: NEW }).harness.resumeTurn(fresh, APPROVE_MAIL)).outcome).toBe('completed');
      const oldOnly = await resumingHarness({ continuationSecret: OLD }).harness.resumeTurn(fresh, APPROVE_MAIL);
      expect(oldOnly.stopReason).toBe('continuation_invalid');
      expect(oldOnly.metadata?.error?.message).toMatch(/signed with a secret this harness does not have/);
    });

    it('refuses a continuation signed with a secret dropped from the list', async () => {
      const old = await pauseForApproval({ continuationSecret: OLD });
      const { harness, tools } = resumingHarness({ continuationSecret: [NEW] });
      expect((await harness.resumeTurn(old, APPROVE_MAIL)).stopReason).toBe('continuation_invalid');
      expect(tools.calls).toEqual([]);
    });
  });

  describe('weak secrets are refused at createHarness', () => {
    const create = (continuationSecret: unknown, extra: Record<string, unknown> = {}) => () =>
      createHarness({ model: { nextStep: () => ({ type: 'final_answer', text: '' }) }, continuationSecret, ...extra } as unknown as HarnessConfig);

    it('says why a short secret is refused, without repeating it', () => {
      let error: unknown;
      try {
        create('hunter2-short')();
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ name: 'HarnessConfigError', field: 'continuationSecret' });
      const message = (error as Error).message;
      expect(message).toMatch(/at least 16 characters/);
      expect(message).toMatch(/forging or altering/);
      expect(message).not.toContain('hunter2-short');
    });

    it('checks every entry of a rotation list, and the list itself', () => {
      expect(create([NEW, 'short'])).toThrow(expect.objectContaining({ field: 'continuationSecret[1]' }));
      expect(create([])).toThrow(expect.objectContaining({ field: 'continuationSecret' }));
      expect(create(42)).toThrow(expect.objectContaining({ field: 'continuationSecret' }));
      expect(create([NEW, 7])).toThrow(expect.objectContaining({ field: 'continuationSecret[1]' }));
      expect(create(NEW, { unsignedContinuations: 'yes' })).toThrow(expect.objectContaining({ field: 'unsignedContinuations' }));
      expect(create([NEW, OLD])).not.toThrow();
    });
  });
});
