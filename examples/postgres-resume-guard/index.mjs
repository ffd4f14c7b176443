// npm start — offline, no server: Postgres resume guard and memory store on PGlite (Postgres in
// WebAssembly). With a server, pass a `pg` Pool instead: createPostgresResumeGuard({ query: pool }).
import { PGlite } from '@electric-sql/pglite';
import {
  createHarness,
  createMemoryToolRegistry,
  createPostgresMemoryStore,
  createPostgresResumeGuard,
  composeToolRegistries,
} from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';

const db = await PGlite.create(); // in memory; PGlite.create('./data') keeps it on disk
const secret = 'example-secret-change-me-0123456789abcdef';

// Each "machine" builds its own guard and store over the same database.
const resumeGuard = () => createPostgresResumeGuard({ query: db });
const memory = () => createPostgresMemoryStore({ query: db, namespace: 'user:ada' });
await resumeGuard().ensureSchema();
await memory().ensureSchema();

let bookings = 0;
const tools = () =>
  composeToolRegistries(
    createMemoryToolRegistry({ store: memory() }),
    createFakeToolRegistry({
      book_table: {
        description: 'Book a restaurant table (needs approval)',
        requiresApproval: true,
        execute: ({ restaurant }) => {
          bookings += 1;
          return `Booked ${restaurant}.`;
        },
      },
    }),
  );
const input = {
  assistantId: 'example',
  turnId: 'turn-1',
  message: { id: 'm1', text: 'Book Maaemo for tonight', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You book tables.' },
};

console.log('=== Machine A: the turn remembers a preference and pauses for approval ===');
const paused = await createHarness({
  model: createScriptedModel([
    { type: 'tool_request', calls: [{ id: 'r1', name: 'remember', input: { key: 'user.cuisine', value: 'Likes Nordic food.' } }] },
    { type: 'tool_request', calls: [{ id: 'b1', name: 'book_table', input: { restaurant: 'Maaemo' } }] },
  ]),
  tools: tools(),
  continuationSecret: secret,
  resumeGuard: resumeGuard(),
}).runTurn(input);
console.log(`outcome: ${paused.outcome}`);
const stored = JSON.stringify(paused.continuation); // what you would keep in your database

console.log('\n=== The approval reaches machines B and C at once (a retried webhook) ===');
const machine = () =>
  createHarness({
    model: createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'm1', name: 'recall', input: { key: 'user.cuisine' } }] },
      (step) => ({ type: 'final_answer', text: `Done. (${step.transcript.at(-1).result.output})` }),
    ]),
    tools: tools(),
    continuationSecret: secret,
    resumeGuard: resumeGuard(),
  });
const approve = { type: 'approval', decisions: { b1: 'approved' } };
const [b, c] = await Promise.all([machine().resumeTurn(stored, approve), machine().resumeTurn(stored, approve)]);
for (const [name, result] of [['B', b], ['C', c]]) {
  console.log(`machine ${name}: ${result.outcome} / ${result.stopReason}${result.assistantMessage ? ` — ${result.assistantMessage.text}` : ''}`);
}
console.log(`bookings made: ${bookings}`);

const claims = await db.query('SELECT count(*)::int AS n FROM agent_assistant_resume_claims');
const remembered = await db.query('SELECT key, value FROM agent_assistant_memory');
console.log(`claims stored: ${claims.rows[0].n}; remembered: ${remembered.rows.map((row) => `${row.key} = ${row.value}`).join(', ')}`);
await db.close();
