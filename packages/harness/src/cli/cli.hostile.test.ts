// The command line against hostile input (issue 22): a continuation file edited by someone else,
// model-chosen call ids in the printed resume command, a key file named as a profiles file,
// endless files and stdin, and terminal escapes from a provider. In-process through `runCliMain`
// where the output is what matters, the built bin where a process, a FIFO or a terminal is.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../local/__fixtures__/test-helpers.js';
import { createFakeOpenAICompatibleServer } from '../testing/node/create-fake-openai-compatible-server.js';
import type { FakeModelServer } from '../testing/node/fake-model-server-types.js';
import { binPath, cliEnv, hasScript, runBin, runCliInProcess, runOnTerminal, type CliRun } from './__fixtures__/cli-process.js';
import { MAX_CONTINUATION_FILE_BYTES } from './internal/continuation-file.js';
import { MAX_PROFILES_FILE_BYTES } from './internal/read-profiles-file.js';
import { MAX_PROMPT_BYTES } from './internal/read-prompt.js';

const SECRET = 'hostile-cli-continuation-secret-0123';
const CANARY = 'sk-canary-XYZ123';

let home: string;
let workspace: string;
let profiles: string;
let server: FakeModelServer;

const env = (extra: Record<string, string> = {}) => cliEnv(home, { AGENT_ASSISTANT_CONTINUATION_SECRET: SECRET, ...extra });
const cli = (argv: readonly string[], options: { input?: string; terminal?: boolean } = {}) => runCliInProcess(argv, { cwd: home, env: env(), ...options });
const runLocal = (...args: string[]) => ['run', '--profiles', profiles, '--profile', 'local', '--workspace', workspace, ...args];
const readCall = (id: string, index: number) => ({ id, name: 'workspace_read', arguments: { path: `${index}.md` } });

/** Runs a turn that pauses for approval of the given calls and writes its continuation file. */
async function pausedFile(name: string, ids: readonly string[] = ['call_1']): Promise<{ file: string; run: CliRun }> {
  const file = join(home, name);
  server.enqueue({ toolCalls: ids.map(readCall) });
  const run = await cli(runLocal('--prompt', 'Read the README', '--require-approval', 'workspace_read', '--continuation-out', file));
  expect(run.code, run.stderr).toBe(3);
  return { file, run };
}

beforeAll(async () => {
  expect(existsSync(binPath), 'build the package first (npm test does)').toBe(true);
  home = tempDir('agent-assistant-hostile-');
  workspace = join(home, 'ws');
  mkdirSync(workspace);
  for (const index of [0, 1, 2]) writeFileSync(join(workspace, `${index}.md`), `note ${index}\n`);
  server = await createFakeOpenAICompatibleServer();
  profiles = join(home, 'profiles.json');
  writeFileSync(
    profiles,
    JSON.stringify({
      profiles: [
        { id: 'local', provider: 'fake', protocol: 'openai-chat', model: 'fake-model', endpoint: server.url, authMode: 'none' },
        { id: 'other', provider: 'fake', protocol: 'openai-chat', model: 'other-model', endpoint: server.url, authMode: 'none' },
      ],
    }),
  );
});

afterEach(() => {
  expect(server.pending(), 'every scripted reply was used').toBe(0);
});

afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A value changed but of the same kind. */
function changed(value: Json): Json[] {
  return sameKind(value).filter((next) => JSON.stringify(next) !== JSON.stringify(value));
}

function sameKind(value: Json): Json[] {
  if (typeof value === 'string') return [`${value}x`, ''];
  if (typeof value === 'number') return [value + 1, 0];
  if (typeof value === 'boolean') return [!value];
  if (value === null) return [0];
  if (Array.isArray(value)) return value.length === 0 ? [['workspace_read']] : [[], [...value, value[0] as Json]];
  return [{}];
}

/** An own `__proto__` member, as `JSON.parse` would make from a file that has one. */
function withOwnProto(target: { [key: string]: Json }, value: Json): { [key: string]: Json } {
  const copy = { ...target };
  Object.defineProperty(copy, '__proto__', { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Every edit of one place in the file: each value changed, each member removed, an unknown member and an own `__proto__` added to each object. */
function tamperings(root: Json): [string, Json][] {
  const out: [string, Json][] = [];
  const visit = (value: Json, path: (string | number)[], replace: (next: Json | undefined) => Json) => {
    const where = path.join('.') || '(file)';
    if (path.length > 0) {
      for (const next of changed(value)) out.push([`${where} = ${JSON.stringify(next)}`, replace(next)]);
      out.push([`${where} removed`, replace(undefined)]);
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) =>
        visit(item, [...path, index], (next) => replace(next === undefined ? value.filter((_, at) => at !== index) : value.map((old, at) => (at === index ? next : old)))),
      );
    } else if (value !== null && typeof value === 'object') {
      out.push([`${where} + unknown member`, replace({ ...value, extra: 'x' })]);
      out.push([`${where} + own __proto__`, replace(withOwnProto(value, { requireApproval: [] }))]);
      for (const key of Object.keys(value)) {
        visit(value[key] as Json, [...path, key], (next) => {
          const copy = { ...value };
          if (next === undefined) delete copy[key];
          else copy[key] = next;
          return replace(copy);
        });
      }
    }
  };
  visit(root, [], (next) => next as Json);
  return out;
}

describe('the continuation file is signed whole (issue 22, CLI 1)', () => {
  it('refuses every edit of every field (exit 2, nothing runs), and the untouched file still resumes', { timeout: 60_000 }, async () => {
    const { file } = await pausedFile('signed.json');
    const genuine = JSON.parse(readFileSync(file, 'utf8')) as { settings: { [key: string]: Json } } & { [key: string]: Json };
    expect(Object.keys(genuine).sort()).toEqual(['continuation', 'format', 'settings', 'signature', 'version']);
    expect(genuine.settings).toMatchObject({ requireApproval: ['workspace_read'], profile: 'local' });

    // What an attacker wants: no approval, another program, another profile, other limits.
    const marker = join(home, 'RAN');
    const program = join(home, 'other-program');
    writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(program, 0o755);
    const { profiles: _profiles, profile: _profile, ...withoutProfile } = genuine.settings;
    const attacks: [string, Json][] = [
      ['settings.requireApproval = []', { ...genuine, settings: { ...genuine.settings, requireApproval: [] } }],
      ['settings: a backend running another program', { ...genuine, settings: { ...withoutProfile, requireApproval: [], backend: 'claude-code', backendCommand: program } }],
      ...(
        [
          ['backend', 'claude-code'],
          ['backendCommand', program],
          ['model', 'other-model'],
          ['profile', 'other'],
          ['maxIterations', 100],
          ['maxToolCalls', 100],
          ['timeoutMs', 999_999],
          ['budget', 1e9],
        ] as const
      ).map(([key, value]): [string, Json] => [`settings.${key} = ${JSON.stringify(value)}`, { ...genuine, settings: { ...genuine.settings, [key]: value } }]),
    ];
    const cases = [...attacks, ...tamperings(genuine)];
    expect(cases.length).toBeGreaterThan(60);

    const requestsBefore = server.requests.length;
    const failures: string[] = [];
    for (const [index, [label, tampered]] of cases.entries()) {
      const path = join(home, `tampered-${index}.json`);
      writeFileSync(path, JSON.stringify(tampered, null, 2));
      const result = await cli(['resume', '--continuation', path, '--approve', 'call_1']);
      const refused =
        result.code === 2 &&
        result.stdout === '' &&
        /continuation file .*(does not match its signature|is not an agent-assistant continuation file|written by an earlier agent-assistant|has invalid settings)/.test(result.stderr);
      if (!refused) failures.push(`${label}: exit ${result.code} ${result.stderr.trim()}`);
    }
    expect(failures).toEqual([]);
    expect(server.requests.length, 'no tampered file reached the provider').toBe(requestsBefore);
    expect(existsSync(marker), 'no tampered file ran another program').toBe(false);
    expect(existsSync(join(home, 'state', 'resume-claims')) ? readdirSync(join(home, 'state', 'resume-claims')) : []).toEqual([]);

    server.enqueue({ text: 'Approved and read.' });
    const resumed = await cli(['resume', '--continuation', file, '--approve', 'call_1']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('Approved and read.\n');
  });

  it('refuses a file written before settings were signed (version 1) and says to run the turn again', async () => {
    const { file } = await pausedFile('old.json');
    const { signature: _signature, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...rest, version: 1, settings: { ...(rest.settings as object), requireApproval: [] } }));
    const result = await cli(['resume', '--continuation', file, '--approve', 'call_1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('written by an earlier agent-assistant');
  });

  it('refuses a file nested without limit before recursing into it', async () => {
    const path = join(home, 'deep.json');
    writeFileSync(path, `{"format":"agent-assistant-continuation","version":2,"signature":"x","settings":{},"continuation":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    const result = await cli(['resume', '--continuation', path, '--approve', 'call_1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nested deeper than');
  });
});

describe('the printed resume command is shell-safe (issue 22, CLI 2)', () => {
  it('pasted into sh, it approves the literal model-chosen ids and runs nothing else', async () => {
    const ids = ['call_1;touch${IFS}PWNED', "$(touch PWNED)'`touch PWNED`'", '--approve'];
    const { file, run } = await pausedFile('shell.json', ids);
    const line = run.stderr.split('\n').find((text) => text.startsWith('resume: '));
    expect(line).toBeDefined();
    const command = line!.slice('resume: '.length);
    // `agent-assistant` on PATH is the built bin; the shell runs the line as a person pasting it would.
    const bin = join(home, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'agent-assistant'), `#!/bin/sh\nexec '${process.execPath}' '${binPath}' "$@"\n`);
    chmodSync(join(bin, 'agent-assistant'), 0o755);
    const cwd = tempDir('agent-assistant-paste-');
    server.enqueue({ text: 'Read all three.' });
    // Asynchronously: the fake provider answers from this process.
    const pasted = await new Promise<CliRun>((resolve, reject) => {
      const child = spawn('sh', ['-c', command], { cwd, env: env({ PATH: `${bin}:${process.env.PATH ?? ''}` }), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(pasted.code, pasted.stderr).toBe(0);
    expect(pasted.stdout).toBe('Read all three.\n');
    expect(readdirSync(cwd)).toEqual([]);
    expect(readdirSync(home)).not.toContain('PWNED');
    expect(command).toContain(file);
  });
});

describe('a file the command line parses is never quoted in an error (issue 22, CLI 3)', () => {
  const files: [string, string, string][] = [
    ['a key file', `${CANARY}\n`, 'line 1, column 1'],
    ['a .env file', `# keys\nOPENAI_API_KEY=${CANARY}\n`, 'line 1, column 1'],
    ['JSON cut after the key', `{\n  "key": "${CANARY}`, 'line 2, column'],
    ['JSON with the key unquoted', `{"profiles": [\n  ${CANARY}\n]}`, 'line 2, column 3'],
    ['a control character in a string', `{"k": "${CANARY}\u0001"}`, 'line 1, column 24'],
  ];
  it.each(files)('%s: the position only, for profiles inspect, run --profiles and resume --continuation', async (_label, content, position) => {
    const path = join(home, 'not-json.txt');
    writeFileSync(path, content);
    for (const argv of [
      ['profiles', 'inspect', '--profiles', path],
      ['run', '--profiles', path, '--profile', 'local', '--prompt', 'hi'],
      ['resume', '--continuation', path, '--approve', 'x'],
    ]) {
      const result = await cli(argv);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`is not valid JSON (${position}`);
      expect(result.stdout + result.stderr).not.toContain('canary');
    }
  });

  it('a JSON secrets file as profiles: names its keys, never their values', async () => {
    const path = join(home, 'secrets.json');
    writeFileSync(path, JSON.stringify({ OPENAI_API_KEY: CANARY }));
    const result = await cli(['profiles', 'inspect', '--profiles', path]);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).not.toContain(CANARY);
  });
});

/** Writes 64 KiB chunks into a FIFO until its reader goes away (or `cap` bytes); resolves with how many the reader's side took. */
async function feedFifo(fifo: string | FileHandle, cap: number): Promise<number> {
  const handle = typeof fifo === 'string' ? await open(fifo, 'w') : fifo;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let written = 0;
  try {
    while (written < cap) written += (await handle.write(chunk, 0, chunk.length)).bytesWritten;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EPIPE') throw error;
  } finally {
    await handle.close();
  }
  return written;
}

function makeFifo(name: string): string {
  const path = join(tempDir('agent-assistant-fifo-'), name);
  const made = spawnSync('mkfifo', [path]);
  expect(made.status).toBe(0);
  return path;
}

/** Bytes a reader may take past its limit: its last 64 KiB read, the pipe's buffer, the writer's chunk in flight. */
const SLACK = 256 * 1024;

describe('every file and stdin is read at most one byte past its limit (issue 22, CLI 4)', () => {
  const bin = (args: string[], options: { stdinFd?: number; input?: string } = {}) => runBin(args, { cwd: home, env: env(), ...options });
  const sources: [string, number, (path: string) => string[], RegExp][] = [
    ['--prompt-file', MAX_PROMPT_BYTES, (path) => runLocal('--prompt-file', path), /--prompt-file ".*" is longer than 1 MiB/],
    ['resume --continuation', MAX_CONTINUATION_FILE_BYTES, (path) => ['resume', '--continuation', path, '--approve', 'x'], /continuation file ".*" is longer than 4 MiB/],
    ['profiles inspect --profiles', MAX_PROFILES_FILE_BYTES, (path) => ['profiles', 'inspect', '--profiles', path], /profiles file ".*" is longer than 1 MiB/],
    ['run --profiles', MAX_PROFILES_FILE_BYTES, (path) => ['run', '--profiles', path, '--profile', 'local', '--prompt', 'hi'], /profiles file ".*" is longer than 1 MiB/],
  ];

  it.each(sources)('%s on /dev/zero: a usage error (exit 2)', async (_label, _limit, argv, message) => {
    const result = await bin(argv('/dev/zero'));
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it.each(sources)('%s on an endless FIFO: refused after at most the limit and one chunk', { timeout: 30_000 }, async (_label, limit, argv, message) => {
    const fifo = makeFifo('endless');
    const [written, result] = await Promise.all([feedFifo(fifo, 4 * limit), bin(argv(fifo))]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(written).toBeGreaterThan(limit);
    expect(written).toBeLessThanOrEqual(limit + SLACK);
  });

  it('a prompt on stdin over 1 MiB is a usage error (exit 2), as through --prompt-file', async () => {
    const result = await bin(runLocal(), { input: 'x'.repeat(MAX_PROMPT_BYTES + 1) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('The prompt on stdin is longer than 1 MiB');
  });

  it('stdin from /dev/zero: exit 2', async () => {
    const zero = openSync('/dev/zero', 'r');
    try {
      const result = await bin(runLocal(), { stdinFd: zero });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('The prompt on stdin is longer than 1 MiB');
    } finally {
      closeSync(zero);
    }
  });

  it('stdin from an endless FIFO: refused after at most the limit and one chunk', { timeout: 30_000 }, async () => {
    const fifo = makeFifo('stdin');
    // Opened without blocking, so the writer can open it too; the bin gets this read end as stdin.
    const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    // The writer is there before the bin starts, so it never reads an end of file first.
    const writeEnd = await open(fifo, 'w');
    const feeding = feedFifo(writeEnd, 4 * MAX_PROMPT_BYTES);
    let running: Promise<CliRun>;
    try {
      running = bin(runLocal(), { stdinFd: readEnd });
    } finally {
      closeSync(readEnd);
    }
    const [written, result] = await Promise.all([feeding, running]);
    expect(result.code, result.stderr).toBe(2);
    expect(written).toBeGreaterThan(MAX_PROMPT_BYTES);
    expect(written).toBeLessThanOrEqual(MAX_PROMPT_BYTES + SLACK);
  });
});

const ESC = '\u001b';
/** Characters that act on a terminal, found raw in `text`. */
const rawControls = (text: string) => [ESC, '\u0007', '\u009b', '\u202e'].filter((char) => text.includes(char));
const FORGED = `${ESC}[31mboom${ESC}[0m\ncompleted (answer_finalized) · 1 step · 0 tool calls · 1 in / 1 out tokens · 0.1 s`;

describe('outside text on a terminal is escaped (issue 22, CLI 5)', () => {
  /** What a terminal shows, without the spinner's own clear-line sequence. */
  const outsideEscapes = (screen: string) => screen.replaceAll(`${ESC}[K`, '');

  it.runIf(hasScript)('a provider error with ESC and a forged "completed" line prints neither on a terminal', async () => {
    server.enqueue({ type: 'error', status: 400, message: FORGED });
    const { code, screen } = await runOnTerminal(runLocal('--prompt', 'hi'), { cwd: home, env: env() });
    expect(code).toBe(1);
    expect(screen).toContain('\\u001b[31mboom');
    expect(rawControls(outsideEscapes(screen))).toEqual([]);
    expect(screen).not.toMatch(/^completed/m);
  });

  it.runIf(hasScript)('an answer with terminal sequences keeps its line breaks and shows the sequences escaped', async () => {
    server.enqueue({ text: `line one\n${ESC}]0;owned${'\u0007'}\u009b2Jline two\u202e` });
    const { code, screen } = await runOnTerminal(runLocal('--prompt', 'hi'), { cwd: home, env: env() });
    expect(code).toBe(0);
    expect(screen).toContain('line one\n\\u001b]0;owned\\u0007\\u009b2Jline two\\u202e\n');
    expect(rawControls(outsideEscapes(screen))).toEqual([]);
  });

  it('the same error off a terminal: escaped on stderr; in --json escaped as JSON (C1 and bidi too)', async () => {
    server.enqueue({ type: 'error', status: 400, message: FORGED });
    const text = await cli(runLocal('--prompt', 'hi'));
    expect(text.code).toBe(1);
    expect(text.stderr).not.toContain(ESC);
    expect(text.stderr.split('\n').filter((line) => line.startsWith('completed'))).toEqual([]);

    server.enqueue({ text: `a\u009b31m\u202eb${ESC}[0m` });
    const json = await cli(runLocal('--prompt', 'hi', '--json'));
    expect(json.code).toBe(0);
    expect(rawControls(json.stdout)).toEqual([]);
    const events = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; text?: string });
    expect(events.filter((event) => event.type === 'text_delta').map((event) => event.text).join('')).toBe(`a\u009b31m\u202eb${ESC}[0m`);
  });

  it('an answer piped off a terminal is passed on exactly', async () => {
    server.enqueue({ text: `raw ${ESC}[1mbold${ESC}[0m` });
    const result = await cli(runLocal('--prompt', 'hi'));
    expect(result.stdout).toBe(`raw ${ESC}[1mbold${ESC}[0m\n`);
  });

  it('a model name from a profiles file: escaped in the table, in --json and in the runner label', async () => {
    const path = join(home, 'escapes.json');
    const model = `m${ESC}[2J\u009b\u202e`;
    writeFileSync(path, JSON.stringify({ profiles: [{ id: 'esc', provider: 'fake', protocol: 'openai-chat', model, endpoint: server.url, authMode: 'none' }] }));
    const inspected = await cli(['profiles', 'inspect', '--profiles', path]);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain('m\\u001b[2J\\u009b\\u202e');
    expect(rawControls(inspected.stdout)).toEqual([]);
    const json = await cli(['profiles', 'inspect', '--profiles', path, '--json']);
    expect(rawControls(json.stdout)).toEqual([]);
    expect(JSON.parse(json.stdout)).toMatchObject([{ id: 'esc', model }]);
    server.enqueue({ text: 'ok' });
    const run = await cli(['run', '--profiles', path, '--profile', 'esc', '--prompt', 'hi'], { terminal: true });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('agent-assistant · profile esc (openai-chat m\\u001b[2J\\u009b\\u202e)');
    expect(rawControls(run.stderr.replaceAll(`${ESC}[K`, ''))).toEqual([]);
  });

  it('a usage error quoting outside text (an unknown flag, a path) is escaped', async () => {
    const flag = await cli([`--bogus${ESC}[2J`]);
    const path = await cli(['profiles', 'inspect', '--profiles', join(home, `missing${ESC}]0;t\u0007\u009b.json`)]);
    for (const result of [flag, path]) {
      expect(result.code).toBe(2);
      expect(rawControls(result.stderr)).toEqual([]);
    }
  });
});
