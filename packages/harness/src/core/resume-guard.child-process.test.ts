import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURE_SECRET, pauseForApproval } from './__fixtures__/approval-pause.js';

const script = fileURLToPath(new URL('../__fixtures__/resume-with-file-guard.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

interface Racer {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  outcome: Promise<{ outcome: string; reason?: string; toolCalls: number }>;
}

function startRacer(setup: string): Racer {
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<never>((_, reject) => child.on('close', (code) => reject(new Error(`racer exited ${code}: ${stderr}`))));
  const next = async () => {
    const line = await Promise.race([lines.next(), exited]);
    if (line.done === true) throw new Error(`racer closed stdout: ${stderr}`);
    return line.value;
  };
  const ready = next().then((line) => expect(line).toBe('ready'));
  const outcome = ready.then(next).then((line) => JSON.parse(line) as { outcome: string; reason?: string; toolCalls: number });
  outcome.catch(() => undefined);
  child.stdin.write(`${setup}\n`);
  return { child, ready, outcome };
}

describe('file resume guard across processes', () => {
  it('lets exactly one of four processes racing on one continuation run the approved tool', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/index.js is missing').toBe(true);
    const directory = await mkdtemp(join(tmpdir(), 'resume-race-'));
    try {
      const continuation = await pauseForApproval();
      const setup = JSON.stringify({ continuation, secret: FIXTURE_SECRET, directory: join(directory, 'claims') });
      const racers = Array.from({ length: 4 }, () => startRacer(setup));
      await Promise.all(racers.map((racer) => racer.ready));
      for (const racer of racers) racer.child.stdin.end('go\n');
      const outcomes = await Promise.all(racers.map((racer) => racer.outcome));
      expect(outcomes.filter((outcome) => outcome.outcome === 'completed')).toHaveLength(1);
      expect(outcomes.reduce((sum, outcome) => sum + outcome.toolCalls, 0)).toBe(1);
      for (const outcome of outcomes.filter((item) => item.outcome !== 'completed')) {
        expect(outcome).toMatchObject({ outcome: 'failed', toolCalls: 0 });
        expect(outcome.reason).toMatch(/already resumed/);
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 30_000);
});
