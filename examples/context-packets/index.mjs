// npm start — offline, no keys: a context packet chosen under a byte budget, the error when the
// required part cannot fit, and the same packet as a tool a (scripted) model calls.
import {
  buildContextPacket,
  ContextPacketError,
  CONTEXT_PACKET_TOOL_NAME,
  createContextPacketToolRegistry,
  createHarness,
} from '@agent-assistant/harness';
import { createScriptedModel } from '@agent-assistant/harness/testing';
import { createMemoryVfs } from '@agent-assistant/vfs';

const vfs = createMemoryVfs({
  '/AGENTS.md': '# Rules\nAnswer from the code. Cite file and line.\n',
  '/src/example.ts': Array.from({ length: 40 }, (_, index) => `export const step${index + 1} = ${index + 1};\n`).join(''),
  '/docs/design.md': `# Design\n${'A long design note. '.repeat(200)}\n`,
  '/CHANGELOG.md': '## 1.2.0\n- Faster steps.\n',
});

const manifest = {
  selections: [
    { id: 'rules', path: 'AGENTS.md', required: true },
    { id: 'source', path: 'src/example.ts', representation: 'body', startLine: 10, endLine: 60, dependsOn: ['rules'] },
    { id: 'design', path: 'docs/design.md' },
    { id: 'changes', path: 'CHANGELOG.md' },
  ],
};

// 1. Under a budget: what fits is taken in order, the rest is listed with the reason.
const { packet, bytes } = await buildContextPacket(vfs, manifest, { budget: 2048 });
console.log(`packet: ${bytes} of 2048 bytes, complete: ${packet.complete}`);
for (const source of packet.sources) {
  console.log(`  took ${source.id}: ${source.path} lines ${source.startLine}–${source.endLine} of ${source.totalLines}${source.clamped ? ' (range clamped)' : ''}, sha256 ${source.sha256.slice(0, 12)}…`);
}
for (const omission of packet.omitted) console.log(`  left out ${omission.id}: ${omission.reason}`);

// 2. Required selections that cannot fit: a typed error, nothing partial.
try {
  await buildContextPacket(vfs, { selections: [{ id: 'design', path: 'docs/design.md', required: true }] }, { budget: 2048 });
} catch (error) {
  if (!ContextPacketError.isInstance(error)) throw error;
  const { id, neededBytes, budget, overBy } = error.details;
  console.log(`error: ${error.reason} — ${id} needs ${neededBytes} bytes, budget ${budget}, over by ${overBy}`);
}

// 3. As a tool: the model writes the manifest; the budget covers the whole result it receives.
const asked = {
  selections: [
    { id: 'rules', path: 'AGENTS.md', required: true },
    { id: 'source', path: 'src/example.ts', startLine: 9, endLine: 11, dependsOn: ['rules'] },
    { id: 'design', path: 'docs/design.md' },
  ],
};
const model = createScriptedModel([
  { type: 'tool_request', calls: [{ id: 'packet-1', name: CONTEXT_PACKET_TOOL_NAME, input: asked }] },
  (input) => {
    const result = input.transcript.at(-1).result;
    const seen = JSON.parse(result.output);
    console.log(`tool result: ${Buffer.byteLength(result.output)} bytes (budget 1024), took ${seen.sources.map((source) => source.id).join(', ')}, left out ${seen.omitted.map((omission) => omission.id).join(', ')}`);
    const line = seen.sources[1].startLine + seen.sources[1].content.split('\n').findIndex((text) => text.includes('step10 '));
    return { type: 'final_answer', text: `step10 is defined in ${seen.sources[1].path} line ${line}.` };
  },
]);
const harness = createHarness({ model, tools: createContextPacketToolRegistry({ vfs, budget: 1024 }) });
const result = await harness.runTurn({
  assistantId: 'code-assistant',
  turnId: 'turn-1',
  message: { id: 'message-1', text: 'Where is step10 defined?', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'Answer from the context packet; call context_packet for the files you need.' },
});
console.log(`outcome: ${result.outcome} — ${result.assistantMessage?.text}`);
