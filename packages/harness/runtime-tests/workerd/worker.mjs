// Runs inside workerd: a tool turn, then an approval turn paused, serialised, resumed by a new
// harness and completed — proving the built main entry (and WebCrypto signing) works in Workers.
// `/project`: an agent project from an in-memory VFS (YAML loaded lazily, SHA-256 by Web Crypto)
// runs a turn: a skill loaded on demand, a deny, an ask paused and resumed by a new agent harness.
import { buildContextPacket, createAgentHarness, createHarness, loadAgentProject, memoryTraceSink, readOutputArtifact, reduceOutput } from '@agent-assistant/harness';
import { createFakeToolRegistry, createScriptedModel } from '@agent-assistant/harness/testing';
import { createMemoryVfs } from '@agent-assistant/vfs';

const input = {
  assistantId: 'worker',
  turnId: 'turn-worker',
  message: { id: 'm1', text: 'Book a table', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'test' },
};
const tools = () =>
  createFakeToolRegistry({
    lookup_weather: ({ city }) => `Sunny in ${city}`,
    book_table: { requiresApproval: true, execute: ({ name }) => `Booked ${name}` },
  });

const projectFiles = {
  'agent-project.yaml': 'default_agent: lead\nagents:\n  lead:\n    tools: [bash]\n    skills: all\n    secrets: [TOKEN]\n',
  'agents/lead.md': '---\nmode: primary\nsteps: 6\npermission:\n  bash:\n    "git push*": ask\n    "rm *": deny\n---\nLEAD-PROMPT\n',
  'skills/notes/SKILL.md': '---\ndescription: Write notes.\n---\nNOTES-BODY\n',
  'skills/notes/template.md': 'TEMPLATE\n',
  'AGENTS.md': 'AGENTS-RULES\n',
};

async function projectTurn(secret) {
  const vfs = createMemoryVfs(projectFiles);
  const project = await loadAgentProject(vfs);
  const ran = [];
  const options = (model) => ({
    model,
    vfs,
    continuationSecret: secret,
    secrets: { TOKEN: 'token-value', OTHER: 'other-value' },
    tools: ({ secret: read }) =>
      createFakeToolRegistry({
        bash: ({ command }) => {
          ran.push(command);
          return `ran ${command} with ${read('TOKEN')} and ${read('OTHER')}`;
        },
      }),
  });
  const lastResult = (step) => step.transcript.filter((item) => item.type === 'tool_result').map((item) => item.result.output ?? item.result.error.code);
  const model = createScriptedModel([
    (step) => {
      if (!step.instructions.systemPrompt.startsWith('LEAD-PROMPT\n\n# Project instructions (AGENTS.md)\n\nAGENTS-RULES')) throw new Error('wrong prompt');
      return { type: 'tool_request', calls: [{ id: 's1', name: 'skill', input: { name: 'notes' } }, { id: 'r1', name: 'bash', input: { command: 'rm -rf /' } }] };
    },
    { type: 'tool_request', calls: [{ id: 'p1', name: 'bash', input: { command: 'git push' } }] },
  ]);
  const paused = await createAgentHarness(project, options(model)).runTurn({
    assistantId: 'worker',
    turnId: 'turn-project',
    message: { id: 'm1', text: 'Notes, then push.', receivedAt: '2026-01-01T00:00:00.000Z' },
  });
  const resumed = await createAgentHarness(project, options(createScriptedModel([(step) => ({ type: 'final_answer', text: lastResult(step).join(' | ') })]))).resumeTurn(
    JSON.parse(JSON.stringify(paused.continuation)),
    { type: 'approval', decisions: { p1: 'approved' } },
  );
  return {
    offered: model.calls[0].availableTools.map((tool) => tool.name),
    paused: [paused.outcome, paused.metadata.approvalRequests[0].details.permissionRule.pattern],
    resumed: [resumed.outcome, resumed.assistantMessage?.text, resumed.usage.toolCalls],
    instructions: [resumed.metadata.agentProject.agent, resumed.metadata.agentProject.instructions.source, resumed.metadata.agentProject.instructions.sha.length],
    ran,
  };
}

export default {
  async fetch(request, env) {
    const secret = env.CONTINUATION_SECRET;
    if (new URL(request.url).pathname === '/project') return Response.json(await projectTurn(secret));
    const trace = memoryTraceSink();
    const weather = await createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'w1', name: 'lookup_weather', input: { city: 'Oslo' } }] },
        (step) => ({ type: 'final_answer', text: step.transcript.at(-1).result.output }),
      ]),
      tools: tools(),
      trace,
    }).runTurn(input);

    const paused = await createHarness({
      model: createScriptedModel([
        { type: 'tool_request', calls: [{ id: 'b1', name: 'book_table', input: { name: 'Maaemo' } }] },
      ]),
      tools: tools(),
      continuationSecret: secret,
    }).runTurn(input);
    const stored = JSON.stringify(paused.continuation);
    const resumed = await createHarness({
      model: createScriptedModel([(step) => ({ type: 'final_answer', text: step.transcript.at(-1).result.output })]),
      tools: tools(),
      continuationSecret: secret,
    }).resumeTurn(JSON.parse(stored), { type: 'approval', decisions: { b1: 'approved' } });

    const tampered = JSON.parse(stored);
    tampered.state.pendingCalls[0].input.name = 'Elsewhere';
    const refused = await createHarness({ model: createScriptedModel([]), continuationSecret: secret }).resumeTurn(tampered, {
      type: 'approval',
      decisions: { b1: 'approved' },
    });

    // No continuationSecret: signed with this isolate's random key, made at request time (WebCrypto).
    const unconfigured = await createHarness({
      model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'b2', name: 'book_table', input: { name: 'Kontrast' } }] }]),
      tools: tools(),
    }).runTurn(input);
    const sameIsolate = await createHarness({
      model: createScriptedModel([(step) => ({ type: 'final_answer', text: step.transcript.at(-1).result.output })]),
      tools: tools(),
    }).resumeTurn(JSON.parse(JSON.stringify(unconfigured.continuation)), { type: 'approval', decisions: { b2: 'approved' } });

    const timedOut = await createHarness({
      model: { nextStep: () => new Promise(() => {}) },
      limits: { maxElapsedMs: 20 },
    }).runTurn(input);

    // Command output reduced with a Worker's own store (a Map here; KV or R2 in production).
    const artifacts = new Map();
    const store = { put: async (id, streams) => void artifacts.set(id, streams), get: async (id) => artifacts.get(id) };
    const log = `${'  ✓ passes\n'.repeat(5000)}AssertionError: expected 3 to be 4\n${'  ✓ passes\n'.repeat(5000)}Tests  1 failed | 10000 passed\n`;
    const reduced = await reduceOutput({ argv: ['npm', 'test'], exitCode: 1, stdout: log, stderr: '', captureComplete: true }, { budget: 2048, store });
    const read = await readOutputArtifact(reduced.artifact.id, { store });
    artifacts.set(reduced.artifact.id, { stdout: new TextEncoder().encode('changed'), stderr: read.stderr });
    const tamperedOutput = await readOutputArtifact(reduced.artifact.id, { store }).catch((error) => error.reason);

    const files = createMemoryVfs({ '/AGENTS.md': 'hello\n', '/src/a.ts': 'one\ntwo\nthree\n' });
    const manifest = { selections: [{ id: 'rules', path: 'AGENTS.md', required: true }, { id: 'a', path: 'src/a.ts', startLine: 2, dependsOn: ['rules'] }] };
    const { packet, bytes } = await buildContextPacket(files, manifest, { budget: 1024 });
    const noCache = await buildContextPacket(files, manifest, { budget: 1024, cacheDir: '/tmp/packets' }).catch((error) => error.reason);

    return Response.json({
      reduced: [
        new TextEncoder().encode(JSON.stringify(reduced)).byteLength <= 2048,
        reduced.stdout.shown.map((block) => block.text),
        new TextDecoder().decode(read.stdout) === log,
        tamperedOutput,
      ],
      packet: [packet.complete, packet.sources[0].sha256, packet.sources[1].content, bytes <= 1024, noCache],
      weather: [weather.outcome, weather.assistantMessage?.text, trace.events.length],
      paused: [paused.outcome, paused.continuation?.signature?.length],
      resumed: [resumed.outcome, resumed.assistantMessage?.text],
      refused: [refused.outcome, refused.stopReason],
      timedOut: [timedOut.outcome, timedOut.stopReason],
      perIsolateKey: [unconfigured.continuation?.signature?.length, sameIsolate.outcome, sameIsolate.assistantMessage?.text],
    });
  },
};
