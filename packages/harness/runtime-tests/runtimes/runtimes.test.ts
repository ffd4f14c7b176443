// The built main entry in Node 20 (the vitest host's), Node 22 and 24, Bun, Deno and workerd: the
// same scenarios (scenarios.mjs) give the same results everywhere, and a continuation paused in
// any runtime resumes in every other. Where there is a file system and processes: the Node VFS,
// the workspace tools and LocalCommandExecutionAdapter. Writes the matrix to .matrix.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/local/__fixtures__/test-helpers.js';
import { startWorkerd, type RunningWorkerd } from '../workerd/start-workerd.js';
import { SCRIPT_RUNTIMES, missingRuntimes, runRequest } from './runtimes.js';
import { recordWhenFinished, writeMatrix } from './matrix.js';

const WORKERD_VERSION = (JSON.parse(readFileSync(fileURLToPath(new URL('../../../../package.json', import.meta.url)), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.workerd!;
const SECRET = 'runtimes-secret-0123456789abcdef-0123';
const RUNTIME_NAMES = [...SCRIPT_RUNTIMES.map((runtime) => runtime.name), 'workerd'];

const LOG_BLOCKS = ['  ✓ passes\n  ✓ passes\n  ✓ passes', 'AssertionError: expected 3 to be 4', `${'  ✓ passes\n'.repeat(5)}Tests  1 failed | 10000 passed`];
const EXPECTED_SCENARIOS: Record<string, unknown> = {
  'tool turn': ['completed', 'Sunny in Oslo', 9],
  'approval pause (signed continuation)': ['awaiting_approval', 43, ['book_table']],
  'resume in a new harness': ['completed', 'answer_finalized', 'Booked Maaemo'],
  'tampered continuation refused': ['failed', 'continuation_invalid'],
  'wrong secret refused': ['failed', 'continuation_invalid'],
  'deadline -> deferred': ['deferred', 'timeout_reached'],
  'context packet': [true, '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03', 'two\nthree\n', true],
  'output reduction': [true, LOG_BLOCKS, true, 'tampered'],
};
const EXPECTED_FS: Record<string, unknown> = {
  'node fs VFS (sandboxed)': [
    '# Guide\nFind the needle here.\n',
    ['dir /docs', 'file /docs/guide.md', 'file /notes.txt'],
    ['/docs/guide.md:2'],
    null,
    'VFS_ERR_PATH_ESCAPE',
    'VFS_ERR_PATH_ESCAPE',
    'VFS_ERR_INVALID_PATH',
  ],
  'workspace tools turn': ['completed', '"/docs/guide.md" ["/docs/guide.md"]', ['workspace_search', 'workspace_list', 'workspace_read', 'workspace_read_json']],
  'local command': ['completed', 'got:hello env:set exit:0 stderr:[REDACTED]'],
  // The third value is the pid of a grandchild that ignored SIGTERM; the host checks it is gone.
  'local command timeout': ['deferred', 'timeout_reached', 'group gone'],
};

let workerd: RunningWorkerd | undefined;
let requests: string;
const scenarios = new Map<string, Record<string, unknown>>();
const resumed = new Map<string, Record<string, unknown>>();
const fsResults = new Map<string, Record<string, unknown>>();

/** Runs one request in the named runtime: a child process, or a POST to workerd. */
async function run(name: string, request: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (name === 'workerd') {
    const response = await fetch(workerd!.url, { method: 'POST', body: JSON.stringify(request) });
    if (response.status !== 200) throw new Error(`workerd answered ${response.status}: ${workerd!.stderr()}`);
    return (await response.json()) as Record<string, unknown>;
  }
  const file = join(requests, `${name}-${String(request.command)}.json`);
  writeFileSync(file, JSON.stringify(request));
  return runRequest(SCRIPT_RUNTIMES.find((runtime) => runtime.name === name)!, file);
}

beforeAll(async () => {
  expect(missingRuntimes(), 'install the pinned runtimes first: bash packages/harness/runtime-tests/run.sh').toEqual([]);
  requests = mkdtempSync(join(tmpdir(), 'runtimes-requests-'));
  workerd = await startWorkerd(fileURLToPath(new URL('./workerd-entry.mjs', import.meta.url)), '');
  // Every runtime pauses a continuation naming itself, then every runtime resumes all of them.
  const results = await Promise.all(RUNTIME_NAMES.map((name) => run(name, { command: 'scenarios', secret: SECRET, runtime: name })));
  RUNTIME_NAMES.forEach((name, index) => scenarios.set(name, results[index]!));
  const continuations = Object.fromEntries(RUNTIME_NAMES.map((name) => [name, scenarios.get(name)!.continuation]));
  const resumes = await Promise.all(RUNTIME_NAMES.map((name) => run(name, { command: 'resume', secret: SECRET, continuations })));
  RUNTIME_NAMES.forEach((name, index) => resumed.set(name, resumes[index]!));
  const fs = await Promise.all(SCRIPT_RUNTIMES.map((runtime) => run(runtime.name, { command: 'fs' })));
  SCRIPT_RUNTIMES.forEach((runtime, index) => fsResults.set(runtime.name, fs[index]!));
}, 120_000);

afterAll(() => {
  workerd?.stop();
  if (requests !== undefined) rmSync(requests, { recursive: true, force: true });
  const versions = new Map(RUNTIME_NAMES.map((name) => [name, String(scenarios.get(name)?.version ?? '?')]));
  versions.set('workerd', WORKERD_VERSION);
  console.log(writeMatrix('main', RUNTIME_NAMES, versions));
});

describe.each(RUNTIME_NAMES)('the built main entry in %s', (name) => {
  it.for(Object.keys(EXPECTED_SCENARIOS))('%s', (scenario, context) => {
    recordWhenFinished(context, 'scenario', scenario, name);
    const actual = scenarios.get(name)?.[scenario];
    expect(actual).toEqual(EXPECTED_SCENARIOS[scenario]);
  });

  it.for(RUNTIME_NAMES)(`resumes the continuation paused in %s`, (origin, context) => {
    recordWhenFinished(context, 'resume', origin, name);
    expect(resumed.get(name)?.[origin]).toEqual(['completed', 'answer_finalized', `Booked ${origin}`]);
  });
});

describe.each(SCRIPT_RUNTIMES.map((runtime) => runtime.name))('file system and processes in %s', (name) => {
  it.for(Object.keys(EXPECTED_FS))('%s', (scenario, context) => {
    recordWhenFinished(context, 'scenario', scenario, name);
    const actual = [...((fsResults.get(name)?.[scenario] as unknown[] | undefined) ?? [])];
    if (scenario === 'local command timeout') actual[2] = typeof actual[2] === 'number' && !isAlive(actual[2]) ? 'group gone' : `still running: ${String(actual[2])}`;
    expect(actual).toEqual(EXPECTED_FS[scenario]);
  });
});
