// The `spawnFn` seam: a caller-provided spawn runs the command with the same arguments and
// options as the built-in one, and the presets pass it through.
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { ClaudeCodeExecutionAdapter } from './claude-code-adapter.js';
import { cleanupTempDirs, executionRequest, fixture, PLAIN_CAPABILITIES, tempDir } from './__fixtures__/test-helpers.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalSpawnFn } from './local-spawn.js';
import type { NodeSpawnOptionsLike } from '../process/node-types.js';

afterEach(() => cleanupTempDirs());

/** A spawnFn that records each call and starts the real process. */
function recordingSpawn() {
  const calls: { command: string; args: readonly string[]; options: NodeSpawnOptionsLike }[] = [];
  const spawnFn: LocalSpawnFn = (command, args, options) => {
    calls.push({ command, args, options });
    return spawn(command, args, options);
  };
  return { calls, spawnFn };
}

describe('LocalCommand — spawnFn', () => {
  it('accepts node:child_process spawn as is', () => {
    expectTypeOf(spawn).toExtend<LocalSpawnFn>();
  });

  it('starts the command through spawnFn with no shell, its own group and the allow-listed env', async () => {
    const { calls, spawnFn } = recordingSpawn();
    const adapter = new LocalCommandExecutionAdapter({
      backendId: 'echo',
      command: process.execPath,
      capabilities: PLAIN_CAPABILITIES,
      buildArgs: () => ['-e', 'process.stdout.write(JSON.stringify({ text: "hi" }))'],
      parseOutput: (stdout) => JSON.parse(stdout) as { text: string },
      env: { EXTRA: '1' },
      spawnFn,
    });
    const result = await adapter.execute(executionRequest('x'));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'hi' } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ command: process.execPath, options: { shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'] } });
    expect(calls[0]?.options.env).toMatchObject({ EXTRA: '1' });
  });

  it('reports a throwing spawnFn as a failed start, not a rejection', async () => {
    const adapter = new LocalCommandExecutionAdapter({
      backendId: 'broken',
      command: 'anything',
      capabilities: PLAIN_CAPABILITIES,
      buildArgs: () => [],
      parseOutput: () => ({ text: '' }),
      spawnFn: () => {
        throw new Error('no containers today');
      },
    });
    const result = await adapter.execute(executionRequest('x'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error' } });
    expect(result.error?.message).toContain('no containers today');
  });

  it('rejects a spawnFn that is not a function', () => {
    expect(
      () =>
        new LocalCommandExecutionAdapter({
          backendId: 'x',
          command: 'x',
          capabilities: PLAIN_CAPABILITIES,
          buildArgs: () => [],
          parseOutput: () => null,
          spawnFn: 'spawn' as unknown as LocalSpawnFn,
        }),
    ).toThrow(/spawnFn must be a function/);
  });

  it('is passed through by the CLI presets', async () => {
    const { calls, spawnFn } = recordingSpawn();
    const home = tempDir();
    const adapter = new ClaudeCodeExecutionAdapter({
      command: process.execPath,
      extraArgs: [],
      env: { HOME: home },
      spawnFn: (command, args, options) => spawnFn(command, [fixture('fake-claude.mjs'), ...args], options),
    });
    const result = await adapter.execute(executionRequest('ping'));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'PONG from fake (message 1)' } });
    expect(calls[0]?.args).toContain('-p');
    expect(calls[0]?.options.stdio[0]).toBe('pipe');
  });
});
