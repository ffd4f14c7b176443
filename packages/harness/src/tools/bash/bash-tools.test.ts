import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createBashToolRegistry,
  createDirectoryOutputStore,
  createHarness,
  HarnessConfigError,
  recoverOutput,
  type BashToolOptions,
  type HarnessResult,
  type ReducedOutput,
} from '../../index.js';
import { makeTestLog } from '../../context/output/__fixtures__/test-log.mjs';
import { createScriptedModel, createTurnInput } from '../../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';
const call = (id: string, command: string) => ({ type: 'tool_request' as const, calls: [{ id, name: 'bash', input: { command } }] });

function results(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

/** One turn running the commands in order, then answering. */
async function runCommands(options: Partial<BashToolOptions>, commands: string[], signal?: AbortSignal) {
  const harness = createHarness({
    model: createScriptedModel([...commands.map((command, index) => call(`b${String(index + 1)}`, command)), { type: 'final_answer', text: 'done' }]),
    tools: createBashToolRegistry({ cwd: folder, requiresApproval: false, ...options }),
    limits: { maxToolCalls: 20, maxIterations: 20 },
  });
  const result = await harness.runTurn(createTurnInput({ text: 'run it' }), { signal });
  return { result, tools: results(result) };
}

/** True while `pid` is a live (not zombie) process. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${String(pid)}/stat`, 'utf8'));
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    if (existsSync('/proc/self')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `pid` finishes exiting within a few seconds. A killed process closes its pipes (which
 * ends the tool call) a moment before the kernel marks it exited, and it is not our child, so
 * there is no exit event to wait on: this polls its state until it is gone or a zombie.
 */
async function exited(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

let folder = '';
let fifoCount = 0;
/** A named pipe: the command writes a pid into it, the test reads it (an event, not a sleep). */
function fifo(): string {
  fifoCount += 1;
  const path = join(folder, `pid-${String(fifoCount)}.fifo`);
  execFileSync('mkfifo', [path]);
  return path;
}

beforeAll(async () => {
  folder = await realpath(await mkdtemp(join(tmpdir(), 'bash-tools-')));
});
afterAll(() => rm(folder, { recursive: true, force: true }));
afterEach(() => {
  delete process.env['BASH_TOOL_TEST_SECRET'];
});

describe('createBashToolRegistry without allow (a bash script, approval by default)', () => {
  const tools = () => createBashToolRegistry({ cwd: folder });

  it('pauses for approval; a rejected command never runs, an approved one runs after a resume in another harness', async () => {
    const marker = join(folder, 'approved-marker');
    const pause = () =>
      createHarness({ model: createScriptedModel([call('b1', `echo ran > '${marker}'; echo ok`)]), tools: tools(), continuationSecret: secret }).runTurn(
        createTurnInput({ text: 'touch it' }),
      );
    const resume = (paused: HarnessResult, decision: 'approved' | 'rejected') =>
      createHarness({ model: createScriptedModel([{ type: 'final_answer', text: 'done' }]), tools: tools(), continuationSecret: secret }).resumeTurn(
        JSON.parse(JSON.stringify(paused.continuation)),
        { type: 'approval', decisions: { b1: decision } },
      );

    const first = await pause();
    expect(first.outcome).toBe('awaiting_approval');
    await resume(first, 'rejected');
    expect(existsSync(marker)).toBe(false);

    const approved = await resume(await pause(), 'approved');
    expect(approved.outcome).toBe('completed');
    expect(results(approved)[0]).toMatchObject({ status: 'success', output: 'ok', structuredOutput: { exitCode: 0, truncated: false } });
    expect(await readFile(marker, 'utf8')).toBe('ran\n');
  });

  it('reports stdout, stderr and a non-zero exit code, runs in cwd, with a fresh shell each call', async () => {
    const { tools: [script, where, fresh] } = await runCommands({}, ['echo out; echo err >&2; exit 3', 'pwd', 'echo "[${X:-unset}]"; X=1']);
    expect(script).toMatchObject({ status: 'success', output: 'out\n[stderr]\nerr\n[exit code 3]', structuredOutput: { exitCode: 3 } });
    expect(where?.output).toBe(folder);
    expect(fresh?.output).toBe('[unset]');
  });

  it('passes only allow-listed parent variables and the configured env (a __proto__ name stays a variable)', async () => {
    process.env['BASH_TOOL_TEST_SECRET'] = 's3cr3t-value';
    const env = { ...(JSON.parse('{"__proto__": "kept"}') as Record<string, string>), GREETING: 'hello there' };
    const { tools: [listing, greeting] } = await runCommands({ env }, ['env', 'echo "$GREETING"']);
    expect(listing?.output).toContain('PATH=');
    expect(listing?.output).toContain('__proto__=kept');
    expect(listing?.output).not.toContain('s3cr3t-value');
    expect(greeting?.output).toBe('hello there');
  });

  it('stops a command at timeoutMs, grandchildren included', async () => {
    const pipe = fifo();
    const pidRead = readFile(pipe, 'utf8');
    const { result, tools: [slow] } = await runCommands({ timeoutMs: 300 }, [`echo started; sleep 1000 & echo $! > '${pipe}'; wait`]);
    expect(result.outcome).toBe('completed');
    expect(slow?.error).toMatchObject({ code: 'timeout', retryable: true });
    expect(slow?.error?.message).toContain('started');
    expect(await exited(Number(await pidRead))).toBe(true);
  });

  it('a cancelled turn stops the command and its grandchild', async () => {
    const pipe = fifo();
    const controller = new AbortController();
    const pidRead = readFile(pipe, 'utf8').then((text) => {
      controller.abort();
      return Number(text);
    });
    const { result } = await runCommands({}, [`sleep 1000 & echo $! > '${pipe}'; wait`], controller.signal);
    const pid = await pidRead;
    expect(result).toMatchObject({ outcome: 'deferred', stopReason: 'cancelled' });
    expect(await exited(pid)).toBe(true);
  });

  it('stops a grandchild left running by a command that exited', async () => {
    const pipe = fifo();
    const pidRead = readFile(pipe, 'utf8');
    const { tools: [left] } = await runCommands({}, [`sleep 1000 & echo $! > '${pipe}'; echo bye`]);
    expect(left?.output).toBe('bye');
    expect(await exited(Number(await pidRead))).toBe(true);
  });
});

describe('createBashToolRegistry: output past maxOutputBytes', () => {
  const shown = (reduced: ReducedOutput) => [...reduced.stdout.shown, ...reduced.stderr.shown].flatMap((block) => block.text.split('\n'));

  it('shows the model the failing test of a long log (JSON within the cap), and keeps the raw bytes recoverable', async () => {
    const { text, failingLines } = makeTestLog('vitest', 2 * 1024 * 1024);
    const stdoutBytes = Buffer.concat([new TextEncoder().encode(text), Uint8Array.of(0xff, 0xfe, 0x0a)]);
    const stderrBytes = new TextEncoder().encode('npm error Lifecycle script `test` failed with error:\nnpm error code 1\n');
    await writeFile(join(folder, 'log.bin'), stdoutBytes);
    await writeFile(join(folder, 'err.txt'), stderrBytes);
    const directory = join(folder, 'outputs');
    const outputStore = createDirectoryOutputStore({ directory });
    const { tools: [run] } = await runCommands({ outputStore }, ['cat log.bin; cat err.txt >&2; exit 1']);
    expect(run?.status).toBe('success');
    expect(new TextEncoder().encode(run?.output).byteLength).toBeLessThanOrEqual(65_536);
    const reduced = JSON.parse(run?.output ?? '') as ReducedOutput;
    expect(reduced).toMatchObject({ exitCode: 1, captureComplete: true, complete: false, argv: ['bash', '--norc', '--noprofile', '-c', 'cat log.bin; cat err.txt >&2; exit 1'] });
    for (const line of [...failingLines, 'npm error code 1']) expect(shown(reduced), line).toContain(line);
    expect(run?.structuredOutput).toEqual({
      exitCode: 1,
      signal: null,
      truncated: true,
      stdoutBytes: stdoutBytes.byteLength,
      stderrBytes: stderrBytes.byteLength,
      artifact: { id: reduced.artifact.id, location: directory },
    });
    const recovered = await recoverOutput(reduced.artifact.id, { store: outputStore, into: join(folder, 'recovered-log') });
    expect((await readFile(recovered.stdout.path)).equals(stdoutBytes)).toBe(true);
    expect(Buffer.from(stderrBytes).equals(await readFile(recovered.stderr.path))).toBe(true);
  });

  it('stops a flood at 8 MiB of output in all; the reduction says the capture is incomplete and the artifact holds those 8 MiB', async () => {
    const outputStore = createDirectoryOutputStore({ directory: join(folder, 'flood-outputs') });
    const { tools: [flood] } = await runCommands({ maxOutputBytes: 1000, outputStore }, ["yes xxxxxxxxx | head -c 20000000; echo 'not reached' >&2"]);
    expect(flood?.status).toBe('success');
    expect(new TextEncoder().encode(flood?.output).byteLength).toBeLessThanOrEqual(2048);
    const reduced = JSON.parse(flood?.output ?? '') as ReducedOutput;
    expect(reduced).toMatchObject({ exitCode: null, captureComplete: false, stderr: { bytes: 0 } });
    expect(reduced.signal).toMatch(/^SIG(TERM|KILL|PIPE)$/);
    expect(flood?.structuredOutput).toMatchObject({ truncated: true, exitCode: null });
    const recovered = await recoverOutput(reduced.artifact.id, { store: outputStore, into: join(folder, 'recovered-flood') });
    expect(recovered.stdout.bytes + recovered.stderr.bytes).toBe(8 * 1024 * 1024);
  });

  it('keeps the raw output in a new private temporary directory by default; stderr there has the env secrets blanked out', async () => {
    const { tools: [run] } = await runCommands({ env: { DEPLOY_PASSPHRASE: 'correct-horse-battery' } }, ['seq 1 30000; echo "failed: $DEPLOY_PASSPHRASE" >&2; exit 2']);
    const data = run?.structuredOutput as { artifact: { id: string; location: string } };
    expect(data.artifact.location.startsWith(join(tmpdir(), 'agent-assistant-output-'))).toBe(true);
    expect((await stat(data.artifact.location)).mode & 0o777).toBe(0o700);
    expect(run?.output).not.toContain('correct-horse-battery');
    const recovered = await recoverOutput(data.artifact.id, {
      store: createDirectoryOutputStore({ directory: data.artifact.location }),
      into: join(folder, 'recovered-default'),
    });
    expect(await readFile(recovered.stderr.path, 'utf8')).toBe('failed: [REDACTED]\n');
    expect((await readFile(recovered.stdout.path, 'utf8')).split('\n')).toHaveLength(30_001);
    await rm(data.artifact.location, { recursive: true, force: true });
  });

  it('a store that fails ends the call with output_store_failed (not retryable: the turn fails), saying how the command ended', async () => {
    const outputStore = { put: () => Promise.reject(new Error('disk full')), get: () => Promise.resolve(undefined) };
    const { result, tools: [run] } = await runCommands({ outputStore, maxOutputBytes: 10 }, ['seq 1 100; exit 4']);
    expect(result).toMatchObject({ outcome: 'failed', error: { code: 'output_store_failed' } });
    expect(run?.error).toMatchObject({ code: 'output_store_failed', retryable: false });
    expect(run?.error?.message).toContain('exit code 4');
    expect(run?.error?.message).toContain('disk full');
  });
});

describe('createBashToolRegistry with allow (no shell)', () => {
  it('runs listed programs with quoted arguments as argv, no approval by default', async () => {
    await writeFile(join(folder, 'a file.txt'), 'x');
    const { result, tools: [printed, listed] } = await runCommands({ requiresApproval: undefined, allow: ['printf', 'ls'] }, [
      `printf '%s,' 'a b' "c d" e`,
      `ls 'a file.txt'`,
    ]);
    expect(result.outcome).toBe('completed');
    expect(printed?.output).toBe('a b,c d,e,');
    expect(listed?.output).toBe('a file.txt');
  });

  it('refuses shell syntax, unlisted programs and paths; nothing runs', async () => {
    const victim = join(folder, 'victim.txt');
    await writeFile(victim, 'keep me');
    const { result, tools } = await runCommands({ allow: ['ls', 'echo', 'no-such-program-xyz'] }, [
      `ls; rm '${victim}'`,
      `echo $(rm ${victim})`,
      'echo `id`',
      `ls | rm ${victim}`,
      `echo x > ${victim}`,
      `rm ${victim}`,
      `/bin/rm ${victim}`,
      'ls *',
      'no-such-program-xyz --help',
    ]);
    expect(result.outcome).toBe('completed');
    expect(tools.map((item) => item.error?.code)).toEqual([
      'command_refused',
      'command_refused',
      'command_refused',
      'command_refused',
      'command_refused',
      'command_not_allowed',
      'command_not_allowed',
      'command_refused',
      'command_not_found',
    ]);
    expect(tools.every((item) => item.error?.retryable === true)).toBe(true);
    expect(await readFile(victim, 'utf8')).toBe('keep me');
  });

  it('asks for approval when configured with a function of the command', async () => {
    const harness = createHarness({
      model: createScriptedModel([call('b1', 'ls'), call('b2', 'git push')]),
      tools: createBashToolRegistry({ cwd: folder, allow: ['ls', 'git'], requiresApproval: (command) => command.startsWith('git') }),
    });
    const result = await harness.runTurn(createTurnInput({ text: 'push' }));
    expect(result.outcome).toBe('awaiting_approval');
    expect(results(result)[0]?.status).toBe('success');
  });
});

describe('createBashToolRegistry options', () => {
  it('checks its options', () => {
    expect(() => createBashToolRegistry({} as BashToolOptions)).toThrow(HarnessConfigError);
    expect(() => createBashToolRegistry({ cwd: folder, allow: [] })).toThrow(/allow/);
    expect(() => createBashToolRegistry({ cwd: folder, allow: ['/bin/ls'] })).toThrow(/bare program name/);
    expect(() => createBashToolRegistry({ cwd: folder, allow: ['..'] })).toThrow(/allow/);
    expect(() => createBashToolRegistry({ cwd: folder, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => createBashToolRegistry({ cwd: folder, env: { 'BAD NAME': 'x' } })).toThrow(/env/);
    expect(() => createBashToolRegistry({ cwd: folder, requiresApproval: 'yes' as never })).toThrow(/requiresApproval/);
    expect(() => createBashToolRegistry({ cwd: folder, outputStore: {} as never })).toThrow(/outputStore/);
  });

  it('refuses an over-long command as invalid input', async () => {
    const { tools: [long] } = await runCommands({}, [`echo ${'x'.repeat(20_000)}`]);
    expect(long?.error?.code).toBe('invalid_input');
  });
});
