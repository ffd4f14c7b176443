// Helpers for the local backend tests: temp dirs, fixture executables, liveness checks, requests.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { ExecutionCapabilities, ExecutionRequest } from '../../execution/types.js';

/** Absolute path of a fixture script in this folder. */
export const fixture = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

const created: string[] = [];

/** A fresh temporary directory, removed by `cleanupTempDirs`. */
export function tempDir(prefix = 'harness-local-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes every directory `tempDir` made. */
export function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * An executable named `name` in `dir` that runs the fixture script with this Node.js (a
 * `/bin/sh` wrapper that `exec`s node, so the pid is the fixture's own).
 */
export function fixtureExecutable(dir: string, name: string, script: string, fixedArgs: string[] = []): string {
  const path = join(dir, name);
  const args = fixedArgs.map((arg) => `'${arg}'`).join(' ');
  writeFileSync(path, `#!/bin/sh\nexec '${process.execPath}' '${fixture(script)}' ${args} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** True while `pid` is a live process (a zombie waiting to be reaped counts as dead). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return existsSync(`/proc/${pid}`);
  }
}

/** The pids a fixture wrote to its pid file; none when it never got that far. */
export function readPids(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number);
}

/** Kills leftovers of a failed test so they do not outlive the run. */
export function killQuietly(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Capabilities of a plain command with no tools or sessions. */
export const PLAIN_CAPABILITIES: ExecutionCapabilities = {
  toolUse: 'none',
  structuredToolCalls: false,
  continuationSupport: 'none',
  approvalInterrupts: 'none',
  traceDepth: 'minimal',
  attachments: false,
};

/** A turn input with `text` as the user message. */
export function turnInput(text: string, extra: Partial<HarnessTurnInput> = {}): HarnessTurnInput {
  return {
    assistantId: 'assistant-local',
    turnId: 'turn-local',
    message: { id: 'message-1', text, receivedAt: '2026-01-01T00:00:00.000Z' },
    instructions: { systemPrompt: 'Be brief.' },
    ...extra,
  };
}

/** An execution request with `text` as the user message. */
export function executionRequest(text: string, extra: Partial<ExecutionRequest> = {}): ExecutionRequest {
  const { turnId, ...input } = turnInput(text);
  return { ...input, turnId, ...extra };
}

/** The calls a fake CLI logged to its `FAKE_CLI_LOG`. */
export function loggedCalls(file: string): { argv: string[]; stdin: string; env: Record<string, string> }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { argv: string[]; stdin: string; env: Record<string, string> });
}
