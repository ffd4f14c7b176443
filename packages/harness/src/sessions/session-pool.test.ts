// The pool over real engine processes (the echo fixture): reuse, idle stop, cap, crash and
// restart, and dispose leaving no process.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive } from '../local/__fixtures__/test-helpers.js';
import { loadNodeModules } from '../process/load-node-modules.js';
import { spawnEngine, type EngineProcess } from '../process/spawn-engine.js';
import { SessionPool, SessionPoolError } from './session-pool.js';

const fixture = join(import.meta.dirname, '__fixtures__', 'engine-process.mjs');
const pools: SessionPool<EngineProcess>[] = [];

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.dispose()));
});

function pool(options: ConstructorParameters<typeof SessionPool>[0] = {}) {
  const created = new SessionPool<EngineProcess>(options);
  pools.push(created);
  return created;
}

async function startEngine(): Promise<EngineProcess> {
  const node = await loadNodeModules();
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const engine = spawnEngine(node, {
    command: process.execPath,
    args: [fixture, 'echo'],
    env: { PATH: process.env['PATH'] ?? '' },
    maxLineBytes: 1024,
    maxStderrBytes: 1024,
    killGraceMs: 200,
    onLine: (line) => line === 'ready' && ready(),
  });
  await Promise.race([isReady, engine.exited]);
  return engine;
}

/** The engine, seen as a session whose engine waits for an approval answer. */
function awaitingApproval(engine: EngineProcess): EngineProcess {
  return Object.assign(Object.create(engine) as EngineProcess, { awaitingApproval: true });
}

describe('SessionPool', () => {
  it('reuses the live session of a key across turns and starts one per key', async () => {
    const sessions = pool();
    const first = await sessions.acquire('a', startEngine);
    expect(first).toMatchObject({ reused: false, restarted: false });
    sessions.release('a', first.session);
    const again = await sessions.acquire('a', startEngine);
    expect(again.session).toBe(first.session);
    expect(again.reused).toBe(true);
    const other = await sessions.acquire('b', startEngine);
    expect(other.session).not.toBe(first.session);
    expect(sessions.size).toBe(2);
  });

  it('refuses a second turn on a busy session', async () => {
    const sessions = pool();
    await sessions.acquire('a', startEngine);
    const error = await sessions.acquire('a', startEngine).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionPoolError);
    expect(error).toMatchObject({ code: 'HARNESS_ERR_SESSION_POOL', reason: 'busy' });
  });

  it('stops the least recently used idle session at the cap, and refuses when all are busy', async () => {
    const sessions = pool({ maxLiveSessions: 2 });
    const a = await sessions.acquire('a', startEngine);
    sessions.release('a', a.session);
    const b = await sessions.acquire('b', startEngine);
    await sessions.acquire('c', startEngine);
    expect(a.session.alive).toBe(false);
    expect(isAlive(a.session.pid!)).toBe(false);
    expect(sessions.peek('a')).toBeUndefined();
    await expect(sessions.acquire('d', startEngine)).rejects.toMatchObject({ reason: 'full' });
    expect(b.session.alive).toBe(true);
  });

  it('stops an idle session after the idle timeout', async () => {
    const sessions = pool({ idleTimeoutMs: 1 });
    const lease = await sessions.acquire('a', startEngine);
    sessions.release('a', lease.session);
    const exit = await lease.session.exited;
    expect(exit).toMatchObject({ kind: 'disposed' });
    expect(sessions.size).toBe(0);
    const next = await sessions.acquire('a', startEngine);
    expect(next).toMatchObject({ reused: false, restarted: false });
  });

  it('keeps a session that waits for an approval answer past the idle timeout', async () => {
    const sessions = pool({ idleTimeoutMs: 1 });
    const waiting = await sessions.acquire('w', async () => awaitingApproval(await startEngine()));
    const plain = await sessions.acquire('p', startEngine);
    sessions.release('w', waiting.session);
    sessions.release('p', plain.session);
    // The plain session's idle timer was armed after the waiting one's would have been.
    await plain.session.exited;
    expect(sessions.peek('p')).toBeUndefined();
    expect(sessions.peek('w')).toBe(waiting.session);
    expect(waiting.session.alive).toBe(true);
  });

  it('at the cap stops a session waiting for an approval answer only when no other idle one can make room', async () => {
    const sessions = pool({ maxLiveSessions: 2 });
    const waiting = await sessions.acquire('w', async () => awaitingApproval(await startEngine()));
    sessions.release('w', waiting.session);
    const plain = await sessions.acquire('p', startEngine);
    sessions.release('p', plain.session);
    // 'w' is the least recently used, but it waits for an answer: 'p' makes room.
    const third = await sessions.acquire('t', startEngine);
    expect(plain.session.alive).toBe(false);
    expect(waiting.session.alive).toBe(true);
    // With only the waiting session idle, it is the one that goes.
    sessions.release('t', third.session);
    await sessions.acquire('t', startEngine);
    await sessions.acquire('u', startEngine);
    expect(waiting.session.alive).toBe(false);
    expect(sessions.peek('w')).toBeUndefined();
  });

  it('notices a crash and starts a new session on the next acquire', async () => {
    const sessions = pool();
    const lease = await sessions.acquire('a', startEngine);
    sessions.release('a', lease.session);
    lease.session.write('crash');
    await lease.session.exited;
    await Promise.resolve();
    expect(sessions.peek('a')).toBeUndefined();
    const next = await sessions.acquire('a', startEngine);
    expect(next).toMatchObject({ reused: false, restarted: true });
    expect(next.session.alive).toBe(true);
  });

  it('passes on a failed start and keeps no entry', async () => {
    const sessions = pool();
    await expect(sessions.acquire('a', () => Promise.reject(new Error('no engine')))).rejects.toThrow('no engine');
    expect(sessions.size).toBe(0);
  });

  it('dispose leaves no process, busy or idle, and later acquires are refused', async () => {
    const sessions = pool();
    const a = await sessions.acquire('a', startEngine);
    const b = await sessions.acquire('b', startEngine);
    sessions.release('b', b.session);
    await sessions.dispose();
    expect([a.session.pid, b.session.pid].some((pid) => pid !== undefined && isAlive(pid))).toBe(false);
    await expect(sessions.acquire('c', startEngine)).rejects.toMatchObject({ reason: 'disposed' });
  });

  it('validates its limits', () => {
    expect(() => new SessionPool({ maxLiveSessions: 0 })).toThrow(/maxLiveSessions/);
    expect(() => new SessionPool({ idleTimeoutMs: Number.NaN })).toThrow(/idleTimeoutMs/);
  });
});
