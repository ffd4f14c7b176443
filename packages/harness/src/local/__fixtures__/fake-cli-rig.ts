// One rig for the adapter tests of the one-shot presets against a fake CLI (fake-<cli>.mjs): a
// private directory per test, the fake executable in it, its call log, its pid file, and the
// adapters made in the test, disposed afterwards with whatever a failed cancel left running.
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { ExecutionOptions, ExecutionStreamEvent } from '../../execution/types.js';
import { cleanupTempDirs, fixtureExecutable, killQuietly, loggedCalls, readPids, tempDir } from './test-helpers.js';

/** A loopback model URL nothing answers (port 9, discard): the fakes print their answers themselves. */
export const UNANSWERED_MODEL_URL = 'http://127.0.0.1:9/v1';

/** The files of the current test's fake CLI. */
export interface FakeCliFiles {
  /** The test's private directory (removed after the test). */
  readonly dir: string;
  /** The fake executable, to pass as `command`. */
  readonly command: string;
  /** The call log the fake appends each call to (`FAKE_CLI_LOG`). */
  readonly log: string;
  /** Where a `FAKE_HANG` run writes its own pid and its tool child's (`PID_FILE`). */
  readonly pidFile: string;
  /** The environment of a fake run: `FAKE_CLI_LOG` and `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
}

/** The rig of one test file; read it inside tests (its paths change with each test). */
export interface FakeCli<Options, Adapter> extends FakeCliFiles {
  /** An adapter on the fake with the file's defaults and `options` over them; disposed after the test. */
  adapter(options?: Options): Adapter;
  /** The calls the fake logged so far. */
  calls(): ReturnType<typeof loggedCalls>;
  /** The pids a `FAKE_HANG` run recorded (itself, its tool child); those still alive are killed after the test. */
  hangPids(): number[];
}

/** What a test file says about its fake CLI. */
export interface FakeCliSpec<Options, Adapter> {
  /** The executable's file name, e.g. `cursor-agent`. */
  executable: string;
  /** The fake in this folder, e.g. `fake-cursor.mjs`. */
  script: string;
  /** Makes the adapter under test: the file's defaults from `files`, then `options` over them. */
  create(files: FakeCliFiles, options: Options | undefined): Adapter;
}

/**
 * Registers the hooks of a fake-CLI adapter test file (call it once at the top): before each test
 * a fresh private directory with the fake executable; after it, the adapters disposed, leftover
 * processes killed and the directories removed.
 */
export function useFakeCli<Options, Adapter extends { dispose(): Promise<void> }>(spec: FakeCliSpec<Options, Adapter>): FakeCli<Options, Adapter> {
  let current: { dir: string; command: string } | undefined;
  const adapters: Adapter[] = [];
  const leftovers: number[] = [];
  const now = () => {
    if (current === undefined) throw new Error('useFakeCli: read the rig inside a test');
    return current;
  };

  beforeEach(() => {
    const dir = tempDir(`${spec.executable}-test-`);
    current = { dir, command: fixtureExecutable(dir, spec.executable, spec.script) };
  });
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
    killQuietly(leftovers.splice(0));
    cleanupTempDirs();
    current = undefined;
  });

  const rig: FakeCli<Options, Adapter> = {
    get dir() {
      return now().dir;
    },
    get command() {
      return now().command;
    },
    get log() {
      return join(now().dir, 'calls.jsonl');
    },
    get pidFile() {
      return join(now().dir, 'pids');
    },
    env: (extra = {}) => ({ FAKE_CLI_LOG: rig.log, ...extra }),
    adapter: (options) => {
      const adapter = spec.create(rig, options);
      adapters.push(adapter);
      return adapter;
    },
    calls: () => loggedCalls(rig.log),
    hangPids: () => {
      const pids = readPids(rig.pidFile);
      leftovers.push(...pids);
      return pids;
    },
  };
  return rig;
}

/** Options of `execute` that cancel the run at its first stream event of `type`. */
export function abortAt(type: ExecutionStreamEvent['type']): ExecutionOptions {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === type) controller.abort();
    },
  };
}
