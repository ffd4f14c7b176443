import { describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { createFakeExecutionAdapter } from '../testing/fake-execution-adapter.js';
import { turnInput } from './__fixtures__/test-helpers.js';
import { BACKEND_CONTINUATION_METADATA_KEY, backendContinuationFrom } from './backend-continuation.js';

const session = { kind: 'x.session', continuationId: 'abc', state: { n: 1 } };

describe('backendContinuationFrom', () => {
  it('reads a raw ExecutionResult', () => {
    expect(backendContinuationFrom({ backendId: 'x', status: 'completed', continuation: session })).toEqual(session);
    expect(backendContinuationFrom({ backendId: 'x', status: 'completed', metadata: { continuation: session } })).toEqual(session);
    expect(backendContinuationFrom({ backendId: 'x', status: 'completed', metadata: { continuation: 'nope' } })).toBeUndefined();
  });

  it('reads a completed harness result (backendMetadata) and a paused one (inside the continuation)', async () => {
    expect(BACKEND_CONTINUATION_METADATA_KEY).toBe('backendContinuation');
    const completed = await createHarness({
      backend: createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: 'hi' }, metadata: { continuation: session } }] }),
    }).runTurn(turnInput('hi'));
    expect(backendContinuationFrom(completed)).toEqual(session);
    const paused = await createHarness({
      backend: createFakeExecutionAdapter({ steps: [{ status: 'needs_clarification', output: { text: 'Which?' }, continuation: session }] }),
    }).runTurn(turnInput('hi'));
    expect(backendContinuationFrom(paused)).toEqual(session);
    const plain = await createHarness({ backend: createFakeExecutionAdapter({ steps: [{ status: 'completed', output: { text: 'hi' } }] }) }).runTurn(turnInput('hi'));
    expect(backendContinuationFrom(plain)).toBeUndefined();
  });
});
