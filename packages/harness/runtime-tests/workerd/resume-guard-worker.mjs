// Runs inside workerd: resumes continuations with createDurableObjectResumeGuard, whose claims go
// to ResumeGuardDurableObject (exported here, as a user's Worker does).
import { createDurableObjectResumeGuard, createHarness, RESUME_CLAIM_GRACE_MS, ResumeGuardDurableObject } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel, runResumeGuardConformance } from '@agent-assistant/harness/testing';

/** The object, plus a way for the test to count the claims it stores (to watch the alarm). */
export class TestResumeGuard extends ResumeGuardDurableObject {
  constructor(state, env) {
    super(state, env);
    this.storage = state.storage;
  }

  async fetch(request) {
    if (new URL(request.url).pathname === '/stored') return Response.json({ stored: (await this.storage.list({ prefix: 'claim:' })).size });
    return super.fetch(request);
  }
}

let toolRuns = 0;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method === 'HEAD') return new Response(null);
    const body = request.method === 'POST' ? await request.json() : {};
    const continuation = body.continuation;
    switch (url.pathname) {
      case '/resume': {
        const harness = createHarness({
          model: createScriptedModel([{ type: 'final_answer', text: 'Mail sent.' }]),
          tools: createFakeToolRegistry({
            send_email: {
              requiresApproval: true,
              execute: ({ to }) => {
                toolRuns += 1;
                return `sent to ${to}`;
              },
            },
          }),
          continuationSecret: env.CONTINUATION_SECRET,
          resumeGuard: createDurableObjectResumeGuard(env.RESUME_GUARD),
        });
        const result = await harness.resumeTurn(continuation, { type: 'approval', decisions: { 'mail-1': 'approved' } });
        return Response.json({ outcome: result.outcome, stopReason: result.stopReason, error: result.metadata?.error?.message });
      }
      case '/claim': {
        // `now` lets the test make a claim that lives `remainingMs` (expiry plus grace, from now).
        const now = body.remainingMs === undefined ? undefined : () => Date.parse(continuation.expiresAt) + RESUME_CLAIM_GRACE_MS - body.remainingMs;
        const guard = createDurableObjectResumeGuard(env.RESUME_GUARD, { now });
        try {
          return Response.json({ claimed: await guard.claim(continuation) });
        } catch (error) {
          return Response.json({ error: String(error?.message ?? error) });
        }
      }
      case '/release': {
        // One guard's claim whose answer it gave up on is released; another guard's release of
        // a claim it did not make changes nothing.
        const [first, second, third] = [0, 1, 2].map(() => createDurableObjectResumeGuard(env.RESUME_GUARD));
        const seen = [await first.claim(continuation), await second.claim(continuation)];
        await second.release(continuation);
        seen.push(await third.claim(continuation));
        await first.release(continuation);
        seen.push(await third.claim(continuation), await second.claim(continuation));
        return Response.json({ seen });
      }
      case '/object': {
        // A raw request to one object, as anything holding the binding could send.
        const stub = env.RESUME_GUARD.get(env.RESUME_GUARD.idFromName(body.name));
        const response = await stub.fetch(`https://object${body.path}`, { method: body.method, body: body.body });
        return Response.json({ status: response.status, body: await response.text() });
      }
      case '/conformance': {
        const report = await runResumeGuardConformance(() => createDurableObjectResumeGuard(env.RESUME_GUARD), {
          processes: { skip: 'a Worker has no processes; parallel requests to workerd race instead (durable-object-resume-guard.test.ts)' },
          store: { skip: 'Durable Object storage belongs to the runtime; a test cannot stop it' },
        });
        return Response.json(report);
      }
      case '/tool-runs':
        return Response.json({ toolRuns });
      case '/not-a-namespace': {
        try {
          createDurableObjectResumeGuard(env.CONTINUATION_SECRET);
          return Response.json({ error: 'accepted' });
        } catch (error) {
          return Response.json({ error: error.name, field: error.field });
        }
      }
      default:
        return new Response('not found', { status: 404 });
    }
  },
};
