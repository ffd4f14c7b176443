import fc from 'fast-check';
import { describe, it } from 'vitest';
import { propertyRuns } from '../__fixtures__/property-runs.js';
import { describeError } from '../shared/describe-error.js';
import {
  createHarness,
  type HarnessApprovalAdapter,
  type HarnessApprovalRequest,
  type HarnessHooks,
  type HarnessModelAdapter,
  type HarnessResult,
  type HarnessToolCall,
  type HarnessToolRegistry,
} from '../index.js';
import { createManualClock, createTurnInput } from '../testing/index.js';
import { hostileThrowables, hostileValues, inheritedNames } from './__fixtures__/hostile-values.js';

// Issue 9, classes 1 and 3: whatever a model, tool, hook or approvals adapter does — hostile ids,
// thrown oddities, unreadable or odd values — runTurn/streamTurn/resumeTurn resolve with a
// structured result within the limits, and a requiresApproval tool never runs without approval.

const outcomes = new Set(['completed', 'needs_clarification', 'awaiting_approval', 'deferred', 'failed']);
const throwables = hostileThrowables();
const oddValues = hostileValues();

/** Tools: two need approval (always, or by a rule), one does not. */
const toolNames = ['guarded', 'guarded_by_rule', 'free'] as const;
const needsApproval = new Set<string>(['guarded', 'guarded_by_rule']);

const idArb = fc.oneof(fc.constantFrom(...inheritedNames, 'c1', 'c2', 'c3'), fc.string({ maxLength: 6 }));
const nameArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...toolNames) }, fc.constantFrom(...inheritedNames, 'missing', ''));
const inputArb = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...inheritedNames), fc.string({ maxLength: 4 })), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: oddValues.length - 1 }).map((index) => ({ odd: index })) },
);
const callArb = fc.record({ id: idArb, name: nameArb, input: inputArb });
const textArb = fc.oneof({ weight: 5, arbitrary: fc.string({ maxLength: 20 }) }, fc.constantFrom('x'.repeat(20_000), ''));
const throwArb = fc.integer({ min: 0, max: throwables.length - 1 }).map((index) => ({ throws: index }));

/** One scripted model step: an output (sometimes malformed), a hostile value, or a throw. */
const stepArb = fc.oneof(
  { weight: 6, arbitrary: fc.array(callArb, { minLength: 0, maxLength: 4 }).map((calls) => ({ output: { type: 'tool_request', calls } })) },
  { weight: 2, arbitrary: textArb.map((text) => ({ output: { type: 'final_answer', text } })) },
  { weight: 1, arbitrary: textArb.map((question) => ({ output: { type: 'clarification', question } })) },
  { weight: 1, arbitrary: idArb.map((id) => ({ output: { type: 'approval_request', request: { id, kind: 'action', summary: 'ok?' } } })) },
  { weight: 1, arbitrary: fc.constantFrom('transient', 'schema_mismatch', 'provider_error', 'bogus').map((kind) => ({ output: { type: 'invalid', kind, reason: 'r' } })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: oddValues.length - 1 }).map((index) => ({ oddOutput: index })) },
  { weight: 1, arbitrary: throwArb },
);
type Step = { output: unknown } | { oddOutput: number } | { throws: number };

/** What a tool, hook or approvals adapter does when called. */
const behaviourArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ ok: true as const }) },
  { weight: 1, arbitrary: throwArb },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: oddValues.length - 1 }).map((index) => ({ oddOutput: index })) },
);
type Behaviour = { ok: true } | { oddOutput: number } | { throws: number };

const scenarioArb = fc.record({
  steps: fc.array(stepArb, { minLength: 1, maxLength: 5 }),
  resumeSteps: fc.array(stepArb, { minLength: 0, maxLength: 3 }),
  tool: behaviourArb,
  rule: behaviourArb,
  listAvailable: behaviourArb,
  prepareRequest: behaviourArb,
  hook: behaviourArb,
  streaming: fc.boolean(),
  maxIterations: fc.integer({ min: 1, max: 4 }),
  maxToolCalls: fc.integer({ min: 1, max: 5 }),
  approve: fc.array(fc.boolean(), { maxLength: 6 }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

/** Replaces `{ odd: n }` inputs with the n-th hostile value, so fast-check never prints or shrinks one. */
function materialise(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.odd === 'number' && Object.keys(record).length === 1) return oddValues[record.odd]![1]();
  if (Array.isArray(value)) return value.map(materialise);
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, materialise(item)]));
}

function perform(behaviour: Behaviour, ok: () => unknown): unknown {
  if ('throws' in behaviour) throw throwables[behaviour.throws]![1]();
  if ('oddOutput' in behaviour) return oddValues[behaviour.oddOutput]![1]();
  return ok();
}

function scriptedModel(steps: Step[]): HarnessModelAdapter {
  let cursor = 0;
  const next = async (): Promise<unknown> => {
    const step = steps[cursor];
    cursor += 1;
    if (step === undefined) return { type: 'final_answer', text: 'script ended' };
    if ('throws' in step) throw throwables[step.throws]![1]();
    if ('oddOutput' in step) return oddValues[step.oddOutput]![1]();
    return materialise(step.output);
  };
  return {
    nextStep: next as HarnessModelAdapter['nextStep'],
    async *streamStep() {
      yield { type: 'text_delta', text: 'thinking' };
      yield { type: 'output', output: (await next()) as never };
    },
  };
}

interface World {
  executed: HarnessToolCall[];
  approved: Set<string>;
}

function toolsFor(scenario: Scenario, world: World): HarnessToolRegistry {
  return {
    listAvailable: () =>
      perform(scenario.listAvailable, () => [
        { name: 'guarded', requiresApproval: true },
        { name: 'guarded_by_rule', requiresApproval: () => perform(scenario.rule, () => true) as boolean },
        { name: 'free' },
      ]) as never,
    execute: async (call) => {
      world.executed.push({ ...call });
      return perform(scenario.tool, () => ({ callId: call.id, toolName: call.name, status: 'success', output: 'done' })) as never;
    },
  };
}

interface Current {
  model: HarnessModelAdapter;
  tools: HarnessToolRegistry;
  approvals: HarnessApprovalAdapter;
  hooks: Required<Pick<HarnessHooks, 'onInvalidModelOutput' | 'onToolError' | 'clarifyOnToolResult'>>;
}

/** What the shared harnesses below call for the case being tried. */
let current: Current | undefined;
const now = (): Current => current!;

/**
 * One harness per pair of limits, reused across cases (so the HMAC key is imported once each);
 * its model, tools, approvals and hooks forward to the current case.
 */
const harnesses = new Map<string, ReturnType<typeof createHarness>>();

function harnessFor(scenario: Scenario, world: World, steps: Step[]) {
  current = {
    model: scriptedModel(steps),
    tools: toolsFor(scenario, world),
    approvals: { prepareRequest: ({ request }) => perform(scenario.prepareRequest, () => request) as never },
    hooks: {
      onInvalidModelOutput: () => perform(scenario.hook, () => undefined) as never,
      onToolError: () => perform(scenario.hook, () => undefined) as never,
      clarifyOnToolResult: () => perform(scenario.hook, () => undefined) as never,
    },
  };
  const key = `${scenario.maxIterations}/${scenario.maxToolCalls}`;
  let harness = harnesses.get(key);
  if (harness === undefined) {
    harness = createHarness({
      model: { nextStep: (input) => now().model.nextStep(input), streamStep: (input) => now().model.streamStep!(input) },
      tools: { listAvailable: (input) => now().tools.listAvailable(input), execute: (call, context) => now().tools.execute(call, context) },
      approvals: { prepareRequest: (input) => now().approvals.prepareRequest(input) },
      hooks: {
        onInvalidModelOutput: (output, state) => now().hooks.onInvalidModelOutput(output, state),
        onToolError: (result, state) => now().hooks.onToolError(result, state),
        clarifyOnToolResult: (result, state) => now().hooks.clarifyOnToolResult(result, state),
      },
      clock: createManualClock(),
      continuationSecret: 'property-secret-0123456789abcdef',
      limits: { maxIterations: scenario.maxIterations, maxToolCalls: scenario.maxToolCalls, maxElapsedMs: 60_000 },
    });
    harnesses.set(key, harness);
  }
  return harness;
}

async function runOnce(harness: ReturnType<typeof harnessFor>, streaming: boolean): Promise<HarnessResult> {
  if (!streaming) return harness.runTurn(createTurnInput());
  const stream = harness.streamTurn(createTurnInput());
  let last: string | undefined;
  for await (const event of stream) last = event.type;
  if (last !== 'result') throw new Error(`the stream ended with ${String(last)}, not the result`);
  return stream.result;
}

/** Like `expect(...).toBe(true)`, without an assertion library's cost per case. */
function check(condition: boolean, problem: string, result: HarnessResult): void {
  if (!condition) throw new Error(`${problem}: ${result.outcome}/${result.stopReason} ${describeError(result.metadata?.error?.message)}`);
}

function checkResult(result: HarnessResult, scenario: Scenario, world: World): void {
  check(outcomes.has(result.outcome) && typeof result.stopReason === 'string', 'unknown outcome', result);
  JSON.stringify(result);
  check(result.traceSummary.iterationCount <= scenario.maxIterations, 'too many iterations', result);
  check(result.traceSummary.toolCallCount <= scenario.maxToolCalls, 'too many tool calls', result);
  check(result.outcome !== 'awaiting_approval' || result.continuation !== undefined, 'approval pause without a continuation', result);
  check(result.metadata?.error === undefined || typeof result.metadata.error.message === 'string', 'error without a message', result);
  for (const call of world.executed) {
    check(!needsApproval.has(call.name) || world.approved.has(call.id), `${call.name} ran without approval`, result);
  }
}

describe('runTurn and resumeTurn under random, hostile model behaviour', () => {
  it('always resolve with a structured result within the limits, and never run a guarded tool without approval', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const world: World = { executed: [], approved: new Set() };
        const result = await runOnce(harnessFor(scenario, world, scenario.steps), scenario.streaming);
        checkResult(result, scenario, world);
        const requests = result.metadata?.approvalRequests as HarnessApprovalRequest[] | undefined;
        if (result.outcome !== 'awaiting_approval' || requests === undefined || result.continuation === undefined) return;

        // Approve some requests (by own key, whatever the id) and resume once.
        const decisions = Object.fromEntries(
          requests.map((request, index) => [request.id, scenario.approve[index] === true ? 'approved' : 'rejected'] as const),
        );
        const approvedBefore = world.executed.length;
        for (const request of requests) {
          if (request.kind === 'tool_call' && decisions[request.id] === 'approved') world.approved.add(request.id);
        }
        const resumed = await harnessFor(scenario, world, scenario.resumeSteps).resumeTurn(result.continuation, { type: 'approval', decisions });
        checkResult(resumed, scenario, world);
        // A call approved once runs at most once.
        const guardedRuns = world.executed.slice(approvedBefore).filter((call) => needsApproval.has(call.name)).map((call) => call.id);
        check(new Set(guardedRuns).size === guardedRuns.length, 'an approved call ran twice', resumed);
      }),
      { numRuns: propertyRuns() },
    );
  }, 600_000);
});
