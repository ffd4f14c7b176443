// The scenarios that need a file system and processes (Node, Bun, Deno): the sandboxed Node VFS,
// the workspace tools over it in a harness turn, and LocalCommandExecutionAdapter running a real
// command (and stopping one at its timeout). Node APIs only through `node:` modules, as a user's
// program on Bun or Deno would use them.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, createWorkspaceToolRegistry, LocalCommandExecutionAdapter } from '@agent-assistant/harness';
import { createScriptedModel } from '@agent-assistant/harness/testing';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';

const CAPABILITIES = {
  toolUse: 'none',
  structuredToolCalls: false,
  continuationSupport: 'none',
  approvalInterrupts: 'none',
  traceDepth: 'minimal',
  attachments: false,
};
const input = (text) => ({ assistantId: 'runtimes', turnId: 'turn-fs', message: { id: 'm1', text, receivedAt: '2026-01-01T00:00:00.000Z' }, instructions: { systemPrompt: 'test' } });
const errorCode = (promise) => promise.then(() => 'no error', (error) => error.code ?? String(error));

async function vfsScenario(root) {
  const vfs = createNodeFsVfs({ root });
  const read = await vfs.read('/docs/guide.md');
  return [
    read.content,
    (await vfs.list('/', { depth: 2 })).map((entry) => `${entry.type} ${entry.path}`),
    (await vfs.search('needle')).map((hit) => `${hit.path}:${hit.line ?? '-'}`),
    await vfs.read('/missing.md'),
    await errorCode(vfs.read('/../outside.txt')),
    await errorCode(vfs.read('/escape/outside.txt')),
    await errorCode(vfs.read('/a\u0000b')),
  ];
}

async function workspaceTurn(root) {
  const model = createScriptedModel([
    { type: 'tool_request', calls: [{ id: 'r1', name: 'workspace_read', input: { path: 'docs/guide.md' } }, { id: 's1', name: 'workspace_search', input: { query: 'needle' } }] },
    (step) => ({
      type: 'final_answer',
      text: step.transcript
        .filter((item) => item.type === 'tool_result')
        .map((item) => JSON.stringify(item.result.structuredOutput.sourcePaths ?? item.result.structuredOutput.sourcePath))
        .join(' '),
    }),
  ]);
  const result = await createHarness({ model, tools: createWorkspaceToolRegistry({ vfs: createNodeFsVfs({ root }) }) }).runTurn(input('Read the guide.'));
  return [result.outcome, result.assistantMessage?.text, model.calls[0].availableTools.map((tool) => tool.name)];
}

async function localCommand(base) {
  const echo = new LocalCommandExecutionAdapter({
    backendId: 'sh-echo',
    command: 'sh',
    capabilities: CAPABILITIES,
    env: { RUNTIME_TEST_TOKEN: 'tok-0123456789' },
    buildArgs: () => ['-c', 'read line; printf "got:%s env:%s" "$line" "${RUNTIME_TEST_TOKEN:+set}"; echo "$RUNTIME_TEST_TOKEN" >&2'],
    stdin: (request) => `${request.message.text}\n`,
    parseOutput: (stdout, context) => ({ text: `${stdout} exit:${context.exitCode} stderr:${context.stderr.trim()}` }),
    isRetryableExit: () => false,
  });
  const completed = await createHarness({ backend: echo }).runTurn(input('hello'));
  const hang = new LocalCommandExecutionAdapter({
    backendId: 'sh-hang',
    command: 'sh',
    capabilities: CAPABILITIES,
    // Long enough for a loaded machine to start sh and write the pid file; a missing one fails the check.
    timeoutMs: 2000,
    killGraceMs: 100,
    // The grandchild ignores SIGTERM and writes its pid first: the whole group must still be gone.
    buildArgs: () => ['-c', `trap "" TERM; sleep 30 & echo $! > '${join(base, 'sleep.pid')}'; wait`],
    parseOutput: () => ({ text: 'unreachable' }),
  });
  const timedOut = await createHarness({ backend: hang }).runTurn(input('hang'));
  return {
    completed: [completed.outcome, completed.assistantMessage?.text ?? completed.error?.message],
    timedOut: [timedOut.outcome, timedOut.stopReason, existsSync(join(base, 'sleep.pid')) ? Number(readFileSync(join(base, 'sleep.pid'), 'utf8')) : 'no pid file'],
  };
}

/** VFS, workspace tools and a local command, in a fresh temporary workspace. */
export async function runFsScenarios() {
  const base = mkdtempSync(join(tmpdir(), 'runtimes-fs-'));
  try {
    const root = join(base, 'ws');
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'docs', 'guide.md'), '# Guide\nFind the needle here.\n');
    writeFileSync(join(root, 'notes.txt'), 'no match\n');
    writeFileSync(join(base, 'outside.txt'), 'OUTSIDE needle\n');
    symlinkSync(base, join(root, 'escape'));
    const { completed, timedOut } = await localCommand(base);
    return {
      'node fs VFS (sandboxed)': await vfsScenario(root),
      'workspace tools turn': await workspaceTurn(root),
      'local command': completed,
      'local command timeout': timedOut,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
