import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getOptionalDepPackageName } from '@agent-relay/harness-driver/broker-path';
import { startRelaycastStandIn, type RelaycastStandIn } from './relaycast-stand-in.js';

/** A real `agent-relay-broker` (9.1.6) running offline against a loopback Relaycast stand-in. */
export interface BrokerRig {
  /** A fresh temp project directory; the broker's `connection.json` is in `.agentworkforce/relay/` under it. */
  cwd: string;
  /** Path of that `connection.json`. */
  connectionPath: string;
  /** The broker's HTTP API, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  /** The broker's API key (`X-API-Key`). */
  apiKey: string;
  /** The current broker's process id. */
  readonly brokerPid: number;
  standIn: RelaycastStandIn;
  /** A clean environment for child processes of the test (PATH, HOME=a temp dir); no relay variables. */
  childEnv: Record<string, string>;
  /** Kills the broker at once (SIGKILL) and resolves when it has exited. The stand-in stays up. */
  killBroker(): Promise<void>;
  /**
   * Kills the broker and starts a new one on the same port, API key and state directory, as a
   * broker restart looks to its clients (their event streams drop and reconnect). Resolves when ready.
   */
  restartBroker(): Promise<void>;

  /** Stops the broker (SIGTERM, SIGKILL after 5 s), closes the stand-in and removes the temp directory. Idempotent. */
  stop(): Promise<void>;
}

/** Options of `startBrokerRig`. */
export interface BrokerRigOptions {
  /** Copy the broker's log to this process's stderr (`AGENT_RELAY_BROKER_LOG=stderr`). */
  log?: boolean;
}

/** Brokers still running, killed if this process exits without stopping them (a crashed or killed test run). */
const liveBrokers = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess) {
  liveBrokers.add(child);
  child.once('exit', () => liveBrokers.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const broker of liveBrokers) broker.kill('SIGKILL');
  });
}

/**
 * Path of the broker binary that `@agent-relay/harness-driver` brings for this platform (its optional
 * dependency `@agent-relay/broker-<platform>-<arch>`, resolved from the driver as it does), or
 * `undefined` where npm installed none.
 */
export function brokerBinaryPath(): string | undefined {
  try {
    const driver = createRequire(import.meta.url).resolve('@agent-relay/harness-driver/package.json');
    const brokerPackage = createRequire(driver).resolve(`${getOptionalDepPackageName()}/package.json`);
    const path = join(dirname(brokerPackage), 'bin', process.platform === 'win32' ? 'agent-relay-broker.exe' : 'agent-relay-broker');
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function waitForApiUrl(child: ChildProcess, output: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /API listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match?.[1] !== undefined) {
        cleanup();
        resolve(match[1]);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`agent-relay-broker exited (${String(code)}) before listening:\n${stdout}\n${output.join('')}`));
    };
    const cleanup = () => {
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Waits until `/api/session` answers 200 (the broker finished its Relaycast handshake). */
async function waitUntilReady(baseUrl: string, apiKey: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('agent-relay-broker exited during its handshake.');
    const response = await fetch(`${baseUrl}/api/session`, { headers: { 'X-API-Key': apiKey } }).catch(() => undefined);
    await response?.body?.cancel();
    if (response?.status === 200) return;
    // Readiness poll of a starting server (503 until its handshake is done), not a sleep for ordering.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('agent-relay-broker did not become ready within 10 s.');
}

/**
 * Starts the stand-in and the real broker in a fresh temp directory with a clean environment, and
 * resolves once the broker's API is ready. Always `stop()` it (in `afterEach`/`afterAll`).
 */
export async function startBrokerRig(options: BrokerRigOptions = {}): Promise<BrokerRig> {
  const binary = brokerBinaryPath();
  if (binary === undefined) throw new Error(`No agent-relay-broker for ${process.platform}-${process.arch}: @agent-relay/harness-driver brings none (${getOptionalDepPackageName()}).`);
  const cwd = await mkdtemp(join(tmpdir(), 'relay-rig-'));
  const home = join(cwd, '.home');
  const stateDir = join(cwd, '.agentworkforce', 'relay');
  const standIn = await startRelaycastStandIn();
  const apiKey = `br_${randomBytes(12).toString('hex')}`;
  const childEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home };
  const env = {
    ...childEnv,
    RELAYCAST_BASE_URL: standIn.url,
    RELAY_BROKER_API_KEY: apiKey,
    RELAY_NODE_TOKEN: 'node-token-test',
    AGENT_RELAY_NO_DEBUG_FILES: '1',
    AGENT_RELAY_TELEMETRY_DISABLED: '1',
    AGENT_RELAY_BROKER_LOG: options.log === true ? 'stderr' : 'off',
  };
  const output: string[] = [];
  const launch = (port: number) => {
    const started = spawn(
      binary,
      ['init', '--instance-name', 'rig-broker', '--workspace-key', 'rk_live_fake', '--state-dir', stateDir, '--api-port', String(port), '--channels', ''],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    track(started);
    started.stderr?.on('data', (chunk: Buffer) => {
      if (options.log === true) process.stderr.write(chunk);
      else if (output.length < 200) output.push(chunk.toString('utf8'));
    });
    return started;
  };
  let child = launch(0);
  let leaseTimer: ReturnType<typeof setInterval> | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (leaseTimer !== undefined) clearInterval(leaseTimer);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited(child);
        clearTimeout(force);
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      await standIn.close();
      await rm(cwd, { recursive: true, force: true });
    })());
  try {
    const baseUrl = await waitForApiUrl(child, output);
    child.stdout?.resume();
    await waitUntilReady(baseUrl, apiKey, child);
    // The broker stops itself when its owner lease (120 s) is not renewed.
    leaseTimer = setInterval(() => {
      fetch(`${baseUrl}/api/session/renew`, { method: 'POST', headers: { 'X-API-Key': apiKey } })
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    }, 30_000);
    leaseTimer.unref();
    const connectionPath = join(stateDir, 'connection.json');
    const connection = JSON.parse(await readFile(connectionPath, 'utf8')) as { url?: string; api_key?: string };
    if (connection.url !== baseUrl || connection.api_key !== apiKey) throw new Error('connection.json does not match the broker that was started.');
    const killBroker = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited(child);
      child.stdout?.destroy();
      child.stderr?.destroy();
    };
    return {
      cwd,
      connectionPath,
      baseUrl,
      apiKey,
      get brokerPid() {
        return child.pid ?? -1;
      },
      standIn,
      childEnv,
      killBroker,
      async restartBroker() {
        await killBroker();
        child = launch(Number(new URL(baseUrl).port));
        const restartedUrl = await waitForApiUrl(child, output);
        child.stdout?.resume();
        if (restartedUrl !== baseUrl) throw new Error(`The restarted broker listens on ${restartedUrl}, not ${baseUrl}.`);
        await waitUntilReady(baseUrl, apiKey, child);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
