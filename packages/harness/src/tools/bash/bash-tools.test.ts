import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBashToolRegistry, createHarness, HarnessConfigError, type BashToolOptions, type HarnessResult } from '../../index.js';
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

  it('caps output, marks it truncated and stops the command', async () => {
    const { tools: [flood] } = await runCommands({ maxOutputBytes: 1000 }, ["yes xxxxxxxxx | head -c 10000000; echo 'not reached' >&2"]);
    expect(flood?.status).toBe('success');
    expect(flood?.structuredOutput).toMatchObject({ truncated: true });
    expect(flood?.output).toMatch(/^(xxxxxxxxx\n){99}xxxxxxxxx\n\[cut: \d+ bytes, showing the first 1000\]\n\[output passed 1000 bytes on stdout; the command was stopped\]$/);
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
  });

  it('refuses an over-long command as invalid input', async () => {
    const { tools: [long] } = await runCommands({}, [`echo ${'x'.repeat(20_000)}`]);
    expect(long?.error?.code).toBe('invalid_input');
  });
});
