// Command output reduced, raw kept — offline. A test run prints 60 000 passing tests and one
// failure in the middle; `reduceOutput` keeps the failure and the summary within 4 KiB and stores
// the raw bytes in a private directory; `recoverOutput` writes them back, byte for byte, into a
// new directory. Then the bash tool does the same for a model (a scripted one here).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createBashToolRegistry, createDirectoryOutputStore, createHarness, recoverOutput, reduceOutput } from '@agent-assistant/harness';
import { createScriptedModel, createTurnInput } from '@agent-assistant/harness/testing';

// The "test suite": a Node program printing like a test runner, exiting 1.
const TEST_RUN = `
const out = [];
for (let n = 1; n <= 60000; n += 1) {
  out.push('  ✓ catalog > lists page ' + n + ' 1ms');
  if (n === 30000) out.push('  × cart > computes the total 6ms', '    → expected 3 to be 4');
}
out.push('', ' FAIL  src/cart.test.ts > cart > computes the total', 'AssertionError: expected 3 to be 4', ' ❯ src/cart.test.ts:42:25', '', '      Tests  1 failed | 60000 passed (60001)');
process.stdout.write(out.join('\\n') + '\\n');
process.exitCode = 1;`;

const dir = await mkdtemp(join(tmpdir(), 'command-output-'));
try {
  // 1. A product captures a test run (any way it likes) and reduces it.
  const argv = [process.execPath, '-e', TEST_RUN];
  const { stdout, stderr, exitCode } = await promisify(execFile)(argv[0], argv.slice(1), { maxBuffer: 16 * 1024 * 1024, encoding: 'buffer' }).then(
    (done) => ({ ...done, exitCode: 0 }),
    (failed) => ({ stdout: failed.stdout, stderr: failed.stderr, exitCode: failed.code }),
  );
  const store = createDirectoryOutputStore({ directory: join(dir, 'artifacts') }); // created 0700
  const reduced = await reduceOutput({ argv: ['node', '-e', '<test run>'], exitCode, stdout, stderr, captureComplete: true }, { budget: 4096, store });
  console.log(`raw: ${stdout.byteLength} bytes, ${reduced.stdout.lines} lines; reduced: ${Buffer.byteLength(JSON.stringify(reduced))} bytes, exit code ${reduced.exitCode}`);
  for (const block of reduced.stdout.shown) console.log(`  lines ${block.from}-${block.to}:\n${block.text.replace(/^/gm, '    | ')}`);
  console.log(`  left out: ${reduced.stdout.omitted.map(([from, to]) => `${from}-${to}`).join(', ')}`);

  // 2. Everything is still there: recover it into a new directory (an existing one is refused).
  const into = join(dir, 'recovered');
  const recovered = await recoverOutput(reduced.artifact.id, { store, into });
  const same = Buffer.compare(await readFile(recovered.stdout.path), stdout) === 0;
  console.log(`recovered ${recovered.stdout.bytes} bytes of stdout, identical: ${same}`);
  await recoverOutput(reduced.artifact.id, { store, into }).catch((error) => console.log(`again into the same directory: ${error.reason}`));

  // 3. The bash tool: output past maxOutputBytes reaches the model reduced, the raw kept in outputStore.
  const model = createScriptedModel([
    { type: 'tool_request', calls: [{ id: 'test', name: 'bash', input: { command: `node -e "$TEST_RUN"` } }] },
    { type: 'final_answer', text: 'cart > computes the total fails: expected 3 to be 4.' },
  ]);
  const tools = createBashToolRegistry({ cwd: dir, requiresApproval: false, env: { TEST_RUN }, maxOutputBytes: 8192, outputStore: store });
  const turn = await createHarness({ model, tools }).runTurn(createTurnInput({ text: 'Run the tests.' }));
  const result = turn.transcript.find((item) => item.type === 'tool_result')?.result;
  const seen = JSON.parse(result.output);
  console.log(`bash tool: the model saw ${Buffer.byteLength(result.output)} bytes, exit code ${seen.exitCode}, artifact ${result.structuredOutput.artifact.id.slice(0, 12)}…`);
  console.log(`  the failure was in it: ${seen.stdout.shown.some((block) => block.text.includes('× cart > computes the total'))}`);
  console.log(`answer: ${turn.assistantMessage?.text}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
