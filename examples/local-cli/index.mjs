// npm run start --workspace=examples/local-cli — local CLI backends, offline:
// 1. a LocalCommand turn against a bundled script (prompt on stdin, JSON on stdout),
// 2. the same command hanging: the turn ends deferred/timeout_reached and the process is killed,
// 3. which coding CLIs are installed here (probeLocalBackends),
// 4. Claude Code, only when `claude` is installed and ANTHROPIC_API_KEY is set.
import { fileURLToPath } from 'node:url';
import {
  backendContinuationFrom,
  buildLocalPrompt,
  ClaudeCodeExecutionAdapter,
  createHarness,
  LocalCommandExecutionAdapter,
  probeLocalBackends,
} from '@agent-assistant/harness';

const script = fileURLToPath(new URL('./answer-cli.mjs', import.meta.url));
const input = (turnId, text) => ({
  assistantId: 'local-demo',
  turnId,
  message: { id: `${turnId}-message`, text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a concise assistant.' },
  context: { blocks: [{ id: 'memory', label: 'Memory', content: 'The user prefers short answers.' }] },
});

const answerCli = (extraArgs = []) =>
  new LocalCommandExecutionAdapter({
    backendId: 'answer-cli',
    command: process.execPath,
    capabilities: {
      toolUse: 'none',
      structuredToolCalls: false,
      continuationSupport: 'none',
      approvalInterrupts: 'none',
      traceDepth: 'minimal',
      attachments: false,
    },
    buildArgs: () => [script, ...extraArgs],
    stdin: (request) => buildLocalPrompt(request), // the prompt never goes through argv
    parseOutput(stdout) {
      const parsed = JSON.parse(stdout);
      return typeof parsed.answer === 'string'
        ? { text: parsed.answer, usage: { inputTokens: parsed.tokens.in, outputTokens: parsed.tokens.out } }
        : null;
    },
    timeoutMs: 1_000,
  });

console.log('=== 1. A LocalCommand turn ===');
const done = await createHarness({ backend: answerCli() }).runTurn(input('turn-1', '-n looks like a flag, but it is just text'));
console.log(`-> ${done.outcome}/${done.stopReason}: ${done.assistantMessage?.text}`);
console.log(`   usage: ${JSON.stringify(done.usage)}`);

console.log('\n=== 2. A command that hangs ===');
const slow = await createHarness({ backend: answerCli(['--hang']) }).runTurn(input('turn-2', 'Anyone there?'));
console.log(`-> ${slow.outcome}/${slow.stopReason} (continuation: ${slow.continuation?.type})`);

console.log('\n=== 3. Installed coding CLIs ===');
const probes = await probeLocalBackends();
for (const probe of probes) console.log(`   ${probe.id.padEnd(12)} ${probe.available ? `v${probe.version} at ${probe.resolvedPath}` : probe.error}`);

console.log('\n=== 4. Claude Code ===');
const claude = probes.find((probe) => probe.id === 'claude-code');
if (!claude?.available || !process.env.ANTHROPIC_API_KEY) {
  console.log('   skipped: needs `claude` on PATH and ANTHROPIC_API_KEY in the environment.');
} else {
  const harness = createHarness({ backend: new ClaudeCodeExecutionAdapter({ model: 'sonnet' }), limits: { maxElapsedMs: 120_000 } });
  const first = await harness.runTurn(input('turn-3', 'Reply with one word: ready?'));
  console.log(`-> ${first.outcome}: ${first.assistantMessage?.text ?? first.metadata?.error?.message}`);
  const session = backendContinuationFrom(first);
  if (session) {
    const second = await harness.runTurn({ ...input('turn-4', 'And what did you just say?'), metadata: { backendContinuation: session } });
    console.log(`-> ${second.outcome} (same session ${session.continuationId}): ${second.assistantMessage?.text ?? second.metadata?.error?.message}`);
  }
}
