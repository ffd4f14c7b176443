import { createHarness } from '../create-harness.js';
import type { HarnessConfig } from '../types/config.js';
import type { HarnessContinuation } from '../types/continuation.js';
import { createFakeToolRegistry, createScriptedModel, createTurnInput } from '../../testing/index.js';

/** The secret the continuation fixtures sign with. */
export const FIXTURE_SECRET = 'fixture-secret-0123456789abcdef-0123';

/** The tools of the approval fixtures: `send_email` needs approval and records every run. */
export function mailTools() {
  return createFakeToolRegistry({
    send_email: { requiresApproval: true, execute: ({ to }) => `sent to ${String(to)}` },
  });
}

/** A harness that resumes the fixture's approval turn: the model answers once the mail is sent. */
export function resumingHarness(config: Partial<Omit<HarnessConfig, 'model' | 'backend'>> = {}) {
  const tools = mailTools();
  const harness = createHarness({
    model: createScriptedModel([{ type: 'final_answer', text: 'Mail sent.' }]),
    tools,
    continuationSecret: FIXTURE_SECRET,
    ...config,
  });
  return { harness, tools };
}

/** Runs a turn that pauses on a `send_email` approval (call id `mail-1`) and returns its continuation as JSON data. */
export async function pauseForApproval(
  config: Partial<Omit<HarnessConfig, 'model' | 'backend'>> = {},
): Promise<HarnessContinuation> {
  const harness = createHarness({
    model: createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'mail-1', name: 'send_email', input: { to: 'ada@example.com' } }] },
    ]),
    tools: mailTools(),
    continuationSecret: FIXTURE_SECRET,
    ...config,
  });
  const paused = await harness.runTurn(createTurnInput());
  if (paused.continuation === undefined) throw new Error(`The fixture turn did not pause: ${paused.stopReason}`);
  return JSON.parse(JSON.stringify(paused.continuation)) as HarnessContinuation;
}

/** The resolution that approves the fixture's call. */
export const APPROVE_MAIL = { type: 'approval', decisions: { 'mail-1': 'approved' } } as const;
