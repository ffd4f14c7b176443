// Helpers for the local backend tests: temp dirs, fixture executables, liveness checks, requests.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
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

/** What /proc/<pid>/stat and /proc/<pid>/status say about a process, on Linux. */
interface ProcState {
  state: string;
  flags: number;
  startTime: string;
  /** SIGKILL is pending (thread or shared): the process can never run its own code again. */
  killPending: boolean;
}

const PF_EXITING = 0x4;
const SIGKILL_BIT = 1n << 8n;
/** Start times the fixtures recorded, by pid (see `readPids`). */
const recordedStartTimes = new Map<number, string>();

function procState(pid: number): ProcState | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const pending = [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].map((match) => BigInt(`0x${match[1]!}`));
    return {
      state: fields[0] ?? '',
      flags: Number(fields[6]),
      startTime: fields[19] ?? '',
      killPending: pending.some((mask) => (mask & SIGKILL_BIT) !== 0n),
    };
  } catch {
    return undefined;
  }
}

/**
 * True while `pid` is a process that can still run code: not gone, not a zombie, not exiting, not
 * holding a pending SIGKILL, and (when its fixture recorded a start time) not a later process that
 * reuses the pid. The answer does not depend on how quickly the kernel gets round to a process
 * that was killed: once a SIGKILL was sent, or the process started exiting, it counts as dead.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!existsSync('/proc/self/stat')) return true;
  const state = procState(pid);
  if (state === undefined) return false;
  if (state.state === 'Z' || state.state === 'X' || (state.flags & PF_EXITING) !== 0 || state.killPending) return false;
  const recorded = recordedStartTimes.get(pid);
  return recorded === undefined || recorded === state.startTime;
}

/** The pids a fixture wrote to its pid file (and their start times, for `isAlive`); none when it never got that far. */
export function readPids(file: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [pid, startTime] = line.trim().split(' ');
      if (startTime !== undefined) recordedStartTimes.set(Number(pid), startTime);
      return Number(pid);
    });
}

/** Kills leftovers of a failed test so they do not outlive the run; never a later process that reuses a pid. */
export function killQuietly(pids: number[]): void {
  for (const pid of pids) {
    if (!isAlive(pid)) continue;
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

/** The `field` of the HarnessConfigError `make` throws; `'accepted'` when it throws nothing, `'other error'` for any other error. */
export function configErrorField(make: () => unknown): string | undefined {
  try {
    make();
  } catch (error) {
    return error instanceof HarnessConfigError ? error.field : 'other error';
  }
  return 'accepted';
}

/** The calls a fake CLI logged to its `FAKE_CLI_LOG`. */
export function loggedCalls(file: string): { argv: string[]; stdin: string; env: Record<string, string> }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { argv: string[]; stdin: string; env: Record<string, string> });
}

/**
 * What `npm install --ignore-scripts @charmland/crush` leaves: `node_modules/.bin/crush` linking to
 * the launcher `run-crush.js`, without the `bin/crush` its install script downloads. The launcher
 * here does what the real one does when run without network: it makes an `archive-XXXXXX`
 * directory in the current directory and exits 1 (more-engines-facts.md section 6).
 */
export function crushInstalledWithoutScripts() {
  const root = tempDir('crush-npm-');
  const pkg = join(root, 'node_modules', '@charmland', 'crush');
  mkdirSync(pkg, { recursive: true });
  mkdirSync(join(root, 'node_modules', '.bin'));
  writeFileSync(
    join(pkg, 'run-crush.js'),
    "#!/usr/bin/env node\nrequire('fs').mkdtempSync('archive-');\nconsole.error('Error: Installation failed: Request failed: getaddrinfo ENOTFOUND github.com');\nprocess.exit(1);\n",
    { mode: 0o755 },
  );
  symlinkSync('../@charmland/crush/run-crush.js', join(root, 'node_modules', '.bin', 'crush'));
  const addBinary = () => {
    mkdirSync(join(pkg, 'bin'));
    fixtureExecutable(join(pkg, 'bin'), 'crush', 'fake-crush.mjs');
  };
  return { root, pkg, bin: join(root, 'node_modules', '.bin'), addBinary };
}
