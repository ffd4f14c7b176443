// Shared setup of the end-to-end tests: the built harness, the CLIs from this folder's
// node_modules, and an isolated home per CLI run.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startFakeModelServer } from './fake-model-server.mjs';

const here = import.meta.dirname;

/** Where the built `@agent-assistant/harness` is: $HARNESS_DIST, else ../packages/harness/dist. */
export const harnessDist = resolve(here, process.env.HARNESS_DIST ?? '../packages/harness/dist');

/** The built harness package (its ESM entry). */
export const loadHarness = () => import(pathToFileURL(join(harnessDist, 'index.js')).href);

/** Absolute path of a CLI installed in this folder. */
export const cli = (name) => join(here, 'node_modules', '.bin', name);

/**
 * The opencode binary. The registry here carries only the linux-x64 builds of opencode 1.18.33,
 * so the platform package is installed directly (an optional dependency) instead of `opencode-ai`.
 */
export const opencodeBinary = join(here, 'node_modules', 'opencode-linux-x64', 'bin', 'opencode');

const homes = [];

/** A fresh HOME with XDG dirs under it; removed by `removeHomes`. */
export function freshHome(prefix) {
  const home = mkdtempSync(join(tmpdir(), `e2e-${prefix}-`));
  for (const dir of ['.config', '.local/share', '.cache', '.local/state', 'tmp', 'work']) mkdirSync(join(home, dir), { recursive: true });
  homes.push(home);
  return home;
}

export function removeHomes() {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
}

/** The environment every CLI run gets: nothing from this process but PATH and a locale. */
export function isolatedEnv(home, extra = {}) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local/state'),
    TMPDIR: join(home, 'tmp'), // gemini writes error reports there
    ...extra,
  };
}

/** Options shared by every adapter in these tests: a hermetic environment and the home's workdir. */
export function adapterOptions(home, env) {
  return { cwd: join(home, 'work'), env, inheritEnv: [], killGraceMs: 2_000 };
}

/** Writes Gemini CLI's settings (auth type, no telemetry, no folder trust) into `home`. */
export function writeGeminiSettings(home) {
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify({
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    }),
  );
}

/** A turn input. */
export function turn(turnId, text, extra = {}) {
  return {
    assistantId: 'e2e',
    turnId,
    message: { id: `${turnId}-message`, text, receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: 'Answer briefly.' },
    ...extra,
  };
}

/** The latest user text a recorded request carried (any of the fake server's APIs). */
export function userTexts(request) {
  const list = request.body.messages ?? request.body.input ?? request.body.contents ?? [];
  return list
    .filter((item) => item?.role === 'user')
    .map((item) => {
      const content = item.content ?? item.parts;
      return typeof content === 'string' ? content : (content ?? []).map((part) => part?.text ?? '').join('\n');
    });
}

/**
 * opencode's config for the fake server (OpenAI-compatible provider) and the environment that
 * isolates it and turns off its auto-update, model fetch, LSP download, default plugins and sharing.
 */
export function opencodeEnv(home, serverUrl) {
  const config = join(home, 'opencode.json');
  writeFileSync(
    config,
    JSON.stringify({
      model: 'fake/fake-model',
      small_model: 'fake/fake-model',
      autoupdate: false,
      share: 'disabled',
      provider: {
        fake: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Fake',
          options: { baseURL: `${serverUrl}/v1`, apiKey: 'sk-fake-e2e' },
          models: { 'fake-model': { name: 'Fake Model', tool_call: true, limit: { context: 128000, output: 4096 } } },
        },
      },
    }),
  );
  return isolatedEnv(home, {
    OPENCODE_CONFIG: config,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    OPENCODE_DISABLE_SHARE: '1',
  });
}

/**
 * Registers the hooks every CLI suite needs: one fake model server and the built harness per file,
 * a fresh HOME per test (prepared by `prepareHome`), and cleanup. Read the live values from the
 * returned object inside tests.
 */
export function useCliTestContext(name, { prepareHome } = {}) {
  const context = { server: undefined, harness: undefined, home: undefined };
  beforeAll(async () => {
    context.server = await startFakeModelServer();
    context.harness = await loadHarness();
  });
  afterAll(() => context.server.close());
  beforeEach(() => {
    context.home = freshHome(name);
    prepareHome?.(context.home);
    context.server.requests.length = 0;
  });
  afterEach(removeHomes);
  return context;
}

/**
 * Registers an afterEach that disposes what `make(options)` built in the test; returns the
 * tracked maker. `make` reads the live context values (server URL, home) when called.
 */
export function useBackends(make) {
  const created = [];
  afterEach(async () => {
    await Promise.all(created.splice(0).map((backend) => backend.dispose()));
  });
  return (options = {}) => {
    const backend = make(options);
    created.push(backend);
    return backend;
  };
}

/** The events of a harness stream and its result. */
export async function collect(stream) {
  const events = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result };
}

/**
 * For a cancel test of a one-shot CLI: `start({ prompt, spawnFn, signal })` starts a run whose
 * prompt makes the fake model call `sleep <unique token>` as a shell tool; resolves once that
 * sleep runs, with what `spawnFn` started (`{ command, pid }`), the `engines` among them still
 * running then, the tool's pids, and `cancel()`: aborts the run, resolves with its result and the
 * engines and tools still running after it.
 */
export async function runUntilSleepTool(start) {
  const token = `${40 + Math.floor(Math.random() * 50)}.${Date.now() % 1000}`;
  const controller = new AbortController();
  const spawned = [];
  const spawnFn = (command, args, options) => {
    const child = spawn(command, args, options);
    spawned.push({ command, pid: child.pid });
    return child;
  };
  const running = start({ prompt: `FAKE_SHELL[sleep ${token}]`, spawnFn, signal: controller.signal });
  const tools = await waitFor(() => {
    const found = processesWith(`sleep ${token}`);
    return found.length > 0 ? found : undefined;
  }, { what: 'the sleep tool' });
  const engines = spawned.map((child) => child.pid).filter(isRunning);
  const cancel = async () => {
    controller.abort();
    const result = await running;
    return { result, survivors: [...tools, ...engines].filter(isRunning) };
  };
  return { spawned, engines, tools, cancel };
}

/** Pids of running (not zombie) processes whose command line (arguments joined by spaces) contains `token`, e.g. a tool's unique argument. */
export function processesWith(token) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(token) && isRunning(Number(entry))) found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** True while `pid` exists and is not a zombie. */
export function isRunning(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !['Z', 'X'].includes(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

/**
 * Resolves with `check()`'s first truthy value, checking after each turn of the event loop's timer
 * phase; rejects after `timeoutMs`. For states no event announces (a tool's process appearing).
 */
export function waitFor(check, { timeoutMs = 60_000, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const poll = () => {
      const value = check();
      if (value) return resolve(value);
      if (Date.now() > deadline) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(poll, 25);
    };
    poll();
  });
}

/** Where Copilot CLI unpacks its 235 MB package: shared by every test and run, so it happens once. */
export const copilotCacheDir = join(homedir(), '.cache', 'agent-assistant-e2e', 'copilot-xdg');
