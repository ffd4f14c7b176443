// A Worker whose approvals resume exactly once, from any location: the resume guard's claims go
// to ResumeGuardDurableObject (exported below; bound as RESUME_GUARD in wrangler.toml).
//   POST /turn     {"text": "..."}                -> the paused result, with its continuation
//   POST /approve  {"continuation": {...}}        -> the resumed result (a replay: continuation_invalid)
import { createDurableObjectResumeGuard, createHarness } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';

export { ResumeGuardDurableObject } from '@agent-assistant/harness';

let bookings = 0;

/** Your model and tools go here; a scripted model keeps the example offline. */
function harness(env, steps) {
  return createHarness({
    model: createScriptedModel(steps),
    tools: createFakeToolRegistry({
      book_table: {
        description: 'Book a restaurant table (needs approval)',
        requiresApproval: true,
        execute: ({ restaurant }) => {
          bookings += 1;
          return `Booked ${restaurant}.`;
        },
      },
    }),
    continuationSecret: env.CONTINUATION_SECRET,
    resumeGuard: createDurableObjectResumeGuard(env.RESUME_GUARD),
  });
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method !== 'POST') return Response.json({ bookings }); // in this isolate, for the demo
    const body = await request.json();
    if (url.pathname === '/turn') {
      const result = await harness(env, [
        { type: 'tool_request', calls: [{ id: 'b1', name: 'book_table', input: { restaurant: 'Maaemo' } }] },
      ]).runTurn({
        assistantId: 'example',
        turnId: crypto.randomUUID(),
        message: { id: crypto.randomUUID(), text: String(body.text ?? ''), receivedAt: new Date().toISOString() },
        instructions: { systemPrompt: 'You book tables.' },
      });
      return Response.json(result);
    }
    if (url.pathname === '/approve') {
      const result = await harness(env, [{ type: 'final_answer', text: 'Your table is booked.' }]).resumeTurn(body.continuation, {
        type: 'approval',
        decisions: { b1: 'approved' },
      });
      return Response.json(result);
    }
    return new Response('not found', { status: 404 });
  },
};
