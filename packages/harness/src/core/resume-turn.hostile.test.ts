import { describe, expect, it } from 'vitest';
import { createHarness, type HarnessResult } from '../index.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../testing/index.js';
import { APPROVE_MAIL, FIXTURE_SECRET, pauseForApproval, resumingHarness } from './__fixtures__/approval-pause.js';

function nested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let level = 0; level < depth; level += 1) value = { next: value };
  return value;
}

function expectRefused(result: HarnessResult, reason: RegExp) {
  expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid', usage: { modelCalls: 0, toolCalls: 0 } });
  expect(result.metadata?.error?.message).toMatch(reason);
}

describe('resumeTurn never rejects, whatever the continuation (issue 9, class 2)', () => {
  it('refuses a continuation nested 5,000 levels deep, as a value and as JSON text, before checking the signature', async () => {
    const { harness, tools } = resumingHarness();
    const deep = { version: 1, state: nested(5_000) };
    expectRefused(await harness.resumeTurn(deep, APPROVE_MAIL), /nested deeper than 64 levels/);
    const deepText = `{"version":1,"state":${'{"next":'.repeat(5_000)}{}${'}'.repeat(5_000)}}`;
    expectRefused(await harness.resumeTurn(deepText, APPROVE_MAIL), /nested deeper than 64 levels/);
    const deepArray = JSON.parse('['.repeat(5_000) + ']'.repeat(5_000)) as unknown;
    expectRefused(await harness.resumeTurn(deepArray, APPROVE_MAIL), /nested deeper/);
    expect(tools.calls).toEqual([]);
  });

  it('refuses BigInts, functions and symbols anywhere inside', async () => {
    const continuation = await pauseForApproval();
    const { harness, tools } = resumingHarness();
    for (const odd of [10n, () => 'x', Symbol('s')]) {
      const hostile = { ...continuation, state: { ...continuation.state, usage: { ...continuation.state.usage, modelCalls: odd } } };
      expectRefused(await harness.resumeTurn(hostile, APPROVE_MAIL), /JSON cannot carry/);
    }
    expect(tools.calls).toEqual([]);
  });

  it('refuses a value whose getter throws, a Proxy whose traps throw, and a revoked Proxy', async () => {
    const continuation = await pauseForApproval();
    const { harness, tools } = resumingHarness();
    const withGetter = { ...continuation };
    Object.defineProperty(withGetter, 'state', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const trap = () => {
      throw new Error('trap');
    };
    const proxy = new Proxy(continuation, { get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    for (const hostile of [withGetter, proxy, revocable.proxy, { ...continuation, state: revocable.proxy }]) {
      expectRefused(await harness.resumeTurn(hostile, APPROVE_MAIL), /threw/);
    }
    expect(tools.calls).toEqual([]);
  });

  it('refuses a cycle', async () => {
    const continuation = await pauseForApproval();
    const cyclic = { ...continuation, state: { ...continuation.state } } as Record<string, unknown> & { state: Record<string, unknown> };
    cyclic.state.self = cyclic;
    const { harness, tools } = resumingHarness();
    expectRefused(await harness.resumeTurn(cyclic, APPROVE_MAIL), /circular/);
    expect(tools.calls).toEqual([]);
  });

  it('reads an array with an own constructor key (and a continuation behind a harmless Proxy) like its JSON', async () => {
    const continuation = await pauseForApproval();
    const transcript = [...(continuation.state as { transcript: unknown[] }).transcript];
    Object.defineProperty(transcript, 'constructor', { value: 'not a function', enumerable: true });
    const withOddArray = { ...continuation, state: { ...continuation.state, transcript } };
    const first = resumingHarness();
    expect((await first.harness.resumeTurn(withOddArray, APPROVE_MAIL)).outcome).toBe('completed');
    const second = resumingHarness();
    expect((await second.harness.resumeTurn(new Proxy(continuation, {}), APPROVE_MAIL)).outcome).toBe('completed');
    expect(first.tools.calls).toHaveLength(1);
    expect(second.tools.calls).toHaveLength(1);
  });

  it('refuses a continuation larger than limits.maxContinuationBytes before reading all of it', async () => {
    const { harness, tools } = resumingHarness({ limits: { maxContinuationBytes: 4_096 } });
    const huge = { version: 1, padding: 'x'.repeat(10_000) };
    expectRefused(await harness.resumeTurn(huge, APPROVE_MAIL), /larger than 4096 bytes/);
    expectRefused(await harness.resumeTurn(JSON.stringify(huge), APPROVE_MAIL), /larger than 4096 bytes/);
    const hugeText = JSON.stringify({ version: 1, padding: 'x'.repeat(20_000) });
    expectRefused(await harness.resumeTurn(hugeText, APPROVE_MAIL), /text is larger than limits.maxContinuationBytes/);
    const sparse: unknown[] = [];
    sparse.length = 2 ** 31;
    expectRefused(await harness.resumeTurn({ version: 1, sparse }, APPROVE_MAIL), /larger than/);
    expect(tools.calls).toEqual([]);
  });

  it('keeps a __proto__ key as data: an altered continuation is refused and nothing is polluted', async () => {
    const continuation = await pauseForApproval();
    const text = JSON.stringify(continuation).replace('"state":{', '"state":{"__proto__":{"polluted":true},');
    const { harness, tools } = resumingHarness();
    expectRefused(await harness.resumeTurn(text, APPROVE_MAIL), /signature/);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(tools.calls).toEqual([]);
  });

  it('does not take the turn id of a refused continuation from a throwing getter', async () => {
    const hostile = {};
    Object.defineProperty(hostile, 'turnId', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const result = await resumingHarness().harness.resumeTurn(hostile, APPROVE_MAIL);
    expect(result).toMatchObject({ stopReason: 'continuation_invalid', turnId: 'unknown' });
  });

  it('turns a hostile resolution into HarnessConfigError, never another error', async () => {
    const continuation = await pauseForApproval();
    const { harness, tools } = resumingHarness();
    const resolution = { type: 'approval' };
    Object.defineProperty(resolution, 'decisions', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    await expect(harness.resumeTurn(continuation, resolution as never)).rejects.toMatchObject({ name: 'HarnessConfigError', field: 'resolution' });
    await expect(harness.resumeTurn(continuation, { type: 'approval', decisions: { 'mail-1': 10n } } as never)).rejects.toMatchObject({
      name: 'HarnessConfigError',
    });
    expect(tools.calls).toEqual([]);
  });

  it('matches decisions by own keys only: a request id "__proto__" needs its own decision', async () => {
    const tools = createFakeToolRegistry({ send_email: { requiresApproval: true, execute: () => 'sent' } });
    const paused = await createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: '__proto__', name: 'send_email', input: {} }] }]),
      tools,
      continuationSecret: FIXTURE_SECRET,
    }).runTurn(createTurnInput());
    expect(paused.outcome).toBe('awaiting_approval');
    const resumeWith = (decisions: string) =>
      createHarness({ model: createScriptedModel([{ type: 'final_answer', text: 'ok' }]), tools, continuationSecret: FIXTURE_SECRET }).resumeTurn(
        JSON.stringify(paused.continuation),
        { type: 'approval', decisions: JSON.parse(decisions) as Record<string, 'approved'> },
      );
    await expect(resumeWith('{}')).rejects.toMatchObject({ field: 'resolution.decisions' });
    expect(tools.calls).toEqual([]);
    expect((await resumeWith('{"__proto__":"approved"}')).outcome).toBe('completed');
    expect(tools.calls.map((call) => call.id)).toEqual(['__proto__']);
  });
});
