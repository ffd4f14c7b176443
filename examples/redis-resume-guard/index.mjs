// npm start — needs a Redis (REDIS_URL, default redis://127.0.0.1:6379; e.g. `redis-server --save ''`).
// Three "machines" share one Redis: A runs a turn that pauses for approval before sending an email;
// the approval webhook reaches B and, retried, C — at the same time. The Redis resume guard lets
// exactly one of them send it. A also remembers a fact in Redis memory, which C recalls.
// A node-redis client on A and B, an ioredis client on C: both fit.
import { createHarness, createMemoryToolRegistry, createRedisMemoryStore, createRedisResumeGuard } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';
import { Redis } from 'ioredis';
import { createClient } from 'redis';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const continuationSecret = process.env.CONTINUATION_SECRET ?? 'example-secret-0123456789abcdef-0123';
const memoryKey = `example:memory:${Date.now()}`;

const connections = [];
async function machine(name, kind) {
  const client = kind === 'ioredis' ? new Redis(url) : await createClient({ url }).connect();
  connections.push(() => (kind === 'ioredis' ? client.disconnect() : client.destroy()));
  const sent = [];
  const tools = createFakeToolRegistry({
    send_email: { requiresApproval: true, execute: ({ to }) => (sent.push(to), `sent to ${to}`) },
  });
  const memory = createMemoryToolRegistry({ store: createRedisMemoryStore({ client, key: memoryKey }) });
  return { name, client, sent, tools, memory };
}

const input = (text) => ({
  assistantId: 'mailer',
  turnId: `turn-${Date.now()}`,
  message: { id: 'm1', text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You send emails when asked.' },
});

const [a, b, c] = [await machine('A', 'node-redis'), await machine('B', 'node-redis'), await machine('C', 'ioredis')];
try {
  // A: a scripted model stands in for a real one; it asks to send the email, which needs approval.
  const paused = await createHarness({
    model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'mail-1', name: 'send_email', input: { to: 'ada@example.com' } }] }]),
    tools: a.tools,
    continuationSecret,
    continuationTtlMs: 24 * 3600 * 1000,
    resumeGuard: createRedisResumeGuard({ client: a.client }),
  }).runTurn(input('Email Ada the report.'));
  console.log(`A: ${paused.outcome}, continuation ${paused.continuation.id} expires ${paused.continuation.expiresAt}`);

  const remembered = await createHarness({
    model: createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'r1', name: 'remember', input: { key: 'ada.email', value: 'Ada reads email at ada@example.com.' } }] },
      { type: 'final_answer', text: 'Noted.' },
    ]),
    tools: a.memory,
  }).runTurn(input('Remember where Ada reads email.'));
  console.log(`A: remembered (${remembered.outcome})`);

  // B and C get the same approval at the same time; each resumes with its own harness and client.
  const approve = { type: 'approval', decisions: { 'mail-1': 'approved' } };
  const resume = (m) =>
    createHarness({
      model: createScriptedModel([{ type: 'final_answer', text: 'Sent.' }]),
      tools: m.tools,
      continuationSecret,
      resumeGuard: createRedisResumeGuard({ client: m.client }),
    }).resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), approve);
  const [onB, onC] = await Promise.all([resume(b), resume(c)]);
  for (const [m, result] of [[b, onB], [c, onC]]) {
    console.log(`${m.name}: ${result.outcome}${result.error ? ` (${result.error.code})` : ''}, sent ${m.sent.length} email(s)`);
  }
  console.log(`emails sent in all: ${a.sent.length + b.sent.length + c.sent.length}`);

  const recalled = await createHarness({
    model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'q1', name: 'recall', input: { key: 'ada.email' } }] }, { type: 'final_answer', text: 'ok' }]),
    tools: c.memory,
  }).runTurn(input('Where does Ada read email?'));
  const recall = recalled.transcript.find((item) => item.type === 'tool_result');
  console.log(`C recalls: ${recall.result.output}`);
} finally {
  await c.client.del(memoryKey);
  for (const close of connections) close();
}
