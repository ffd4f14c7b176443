// The orphan guard as a real process: the command and its arguments reach the command exactly
// (the guard takes them from its last argument, whatever the runtime puts before it — Deno's eval
// adds its module path; runtime-tests/runtimes/bins.test.ts runs it under Deno and Bun), and the
// command's exit code is the guard's.
import { describe, expect, it } from 'vitest';
import { orphanGuardSpawn } from './orphan-guard-spawn.js';

function run(command: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = orphanGuardSpawn()!(command, args, {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    windowsHide: true,
    shell: false,
  });
  const decoder = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += decoder.stdout.decode(chunk, { stream: true })));
  child.stderr!.on('data', (chunk) => (stderr += decoder.stderr.decode(chunk, { stream: true })));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe.skipIf(process.platform === 'win32')('orphanGuardSpawn', () => {
  it('passes every argument through unchanged, flags, JSON, quotes, empty and unicode included', async () => {
    const hostile = ['--', '-e', 'console.log(1)', '["not","the","command"]', '', ' spaced  out ', '"\'\\', '__proto__', 'Ünïcødé 🦀 \u202e', '$HOME', 'line\nbreak'];
    const result = await run('sh', ['-c', 'for arg in "$@"; do printf "<%s>" "$arg"; done; exit 7', 'sh', ...hostile]);
    expect(result.stdout).toBe(hostile.map((arg) => `<${arg}>`).join(''));
    expect(result.code).toBe(7);
  });

  it('exits 127 with a message when the command is missing', async () => {
    const result = await run('agent-assistant-no-such-command', ['--flag']);
    expect(result.code).toBe(127);
    expect(result.stderr).toBe('spawn agent-assistant-no-such-command ENOENT\n');
  });
});
