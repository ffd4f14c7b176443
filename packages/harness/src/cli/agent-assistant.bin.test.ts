// The built `agent-assistant` bin as a real process: against the loopback fake model server, the
// fixture CLIs, and (with util-linux `script`) a pseudo-terminal.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, fixtureExecutable, isAlive, tempDir } from '../local/__fixtures__/test-helpers.js';
import { createFakeOpenAICompatibleServer } from '../testing/node/create-fake-openai-compatible-server.js';
import type { FakeModelServer, FakeServerScript } from '../testing/node/fake-model-server-types.js';
import { binPath, cliEnv, hasScript, runBin as runCliBin, runOnTerminal as runCliOnTerminal, type CliRun } from './__fixtures__/cli-process.js';

const SECRET = 'test-continuation-secret-0123456789';

let home: string;
let server: FakeModelServer;
let profiles: string;
let workspace: string;

const baseEnv = (extra: Record<string, string> = {}) => cliEnv(home, extra);

function runBin(args: string[], options: { env?: Record<string, string>; input?: string; onSpawn?: (pid: number) => void } = {}): Promise<CliRun> {
  return runCliBin(args, { ...options, cwd: home, env: options.env ?? baseEnv() });
}

const toolThenAnswer = (answer: string): FakeServerScript[] => [
  {
    toolCalls: [{ id: 'call_1', name: 'workspace_read', arguments: { path: 'README.md' } }],
    usage: { inputTokens: 210, outputTokens: 18 },
  },
  { text: answer, deltaSize: 5, usage: { inputTokens: 260, outputTokens: 21 } },
];

beforeAll(async () => {
  expect(existsSync(binPath), 'build the package first (npm test does)').toBe(true);
  home = tempDir('agent-assistant-cli-');
  workspace = join(home, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), 'hello from the workspace\n');
  server = await createFakeOpenAICompatibleServer();
  profiles = join(home, 'profiles.json');
  writeFileSync(
    profiles,
    JSON.stringify({
      profiles: [
        {
          id: 'local',
          provider: 'fake',
          protocol: 'openai-chat',
          model: 'fake-model',
          endpoint: server.url,
          authMode: 'none',
          pricing: { inputPerMillionTokens: 2, outputPerMillionTokens: 8 },
        },
        {
          id: 'router',
          provider: 'openrouter',
          protocol: 'openai-chat',
          model: 'openai/gpt-5-mini',
          endpoint: 'https://openrouter.ai/api/v1',
          authMode: 'api-key',
          secretSource: { kind: 'environment', name: 'CLI_TEST_ROUTER_API_KEY' },
        },
      ],
      aliases: { fast: 'local' },
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

const runLocal = (...args: string[]) => ['run', '--profiles', profiles, '--profile', 'local', '--workspace', workspace, ...args];

describe('agent-assistant --help', () => {
  it.each([[[]], [['run']], [['resume']], [['probe']], [['profiles']], [['profiles', 'inspect']], [['secret']], [['secret', 'init']]])(
    '%j --help prints the usage and exits 0',
    async (command) => {
      const result = await runBin([...command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: agent-assistant/);
      expect(result.stderr).toBe('');
    },
  );
});

describe('agent-assistant run', () => {
  it('streams the answer to stdout and ends with a summary line on stderr (not a terminal: no spinner)', async () => {
    server.enqueue(...toolThenAnswer('The README says hello from the workspace.'));
    const result = await runBin(runLocal('--prompt', 'What does the README say?'));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('The README says hello from the workspace.\n');
    expect(result.stderr).toMatch(
      /^completed \(answer_finalized\) · 2 steps · 1 tool call · 470 in \/ 39 out tokens · cost 0\.00125 · \d+\.\d s\n$/,
    );
    const body = server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(body.messages)).toContain('hello from the workspace');
  });

  it('reads the prompt from stdin and prints one JSON event per line with --json', async () => {
    server.enqueue(...toolThenAnswer('Hello.'));
    const result = await runBin(runLocal('--json'), { input: 'Say hello' });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['turn_started', 'step_started', 'tool_started', 'tool_finished', 'text_delta', 'result']),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'result',
      exitCode: 0,
      result: { outcome: 'completed' },
      receipts: [{ profileId: 'local' }, { profileId: 'local' }],
    });
    expect(
      events
        .filter((event) => event.type === 'text_delta')
        .map((event) => event.text)
        .join(''),
    ).toBe('Hello.');
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain('Say hello');
    expect(result.stderr).toBe('');
  });

  it('exits 1 for a failed turn and names the error', async () => {
    server.enqueue({ type: 'error', status: 401, message: 'bad key' });
    const result = await runBin(runLocal('--prompt', 'hi'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: authentication_failed');
    expect(result.stderr).toContain('failed (provider_error)');
  });

  it('exits 4 when a limit defers the turn', async () => {
    server.enqueue(toolThenAnswer('')[0]!);
    const result = await runBin(runLocal('--prompt', 'read it', '--max-iterations', '1'));
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('deferred (max_iterations_reached)');
    expect(result.stderr).toContain('--continuation-out FILE');
  });

  it.each([
    [['run', '--prompt', 'hi'], /--profiles FILE --profile ID, or --backend ID/],
    [['run', '--backend', 'claude-code', '--profiles', 'x', '--profile', 'y', '--prompt', 'hi'], /either --backend or --profiles/],
    [['run', '--bogus'], /Unknown argument "--bogus"/],
    [
      ['run', '--profiles', 'p.json', '--profile', 'local', '--prompt', 'hi', '--max-iterations', '0'],
      /--max-iterations must be a whole number/,
    ],
    [['run', '--backend', 'vim', '--prompt', 'hi'], /Unknown local backend "vim"/],
    [['run', '--profiles', 'missing.json', '--profile', 'local', '--prompt', 'hi'], /Cannot read the profiles file/],
    [['bogus'], /unknown command "bogus"/],
  ])('exits 2 with a fix for %j', async (args, message) => {
    const result = await runBin(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('refuses --continuation-out without a continuation secret, naming `secret init` and the variable', async () => {
    const result = await runBin(runLocal('--prompt', 'hi', '--continuation-out', join(home, 'c.json')));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `Run \`agent-assistant secret init\` once (it writes a random key to ${JSON.stringify(join(home, '.config', 'agent-assistant', 'continuation-secret'))}, used whenever AGENT_ASSISTANT_CONTINUATION_SECRET is not set), or set AGENT_ASSISTANT_CONTINUATION_SECRET`,
    );
  });

  it('refuses a --require-approval name that matches no offered tool (a typo would gate nothing), listing the tools', async () => {
    const requestsBefore = server.requests.length;
    const result = await runBin(runLocal('--prompt', 'Read the README', '--require-approval', 'workspace_read', '--require-approval', 'workspace_red'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--require-approval "workspace_red": no such tool. The tools offered: workspace_search, workspace_list, workspace_read, workspace_read_json.',
    );
    expect(result.stdout).toBe('');
    expect(server.requests.length, 'no model call was made').toBe(requestsBefore);
  });
});

describe('agent-assistant run → resume', () => {
  it('pauses for approval (exit 3), writes the continuation, and resumes once in another process', async () => {
    const file = join(home, 'approval.json');
    const env = baseEnv({ AGENT_ASSISTANT_CONTINUATION_SECRET: SECRET });
    server.enqueue(toolThenAnswer('')[0]!);
    const paused = await runBin(
      runLocal('--prompt', 'Read the README', '--require-approval', 'workspace_read', '--continuation-out', file),
      { env },
    );
    expect(paused.code).toBe(3);
    expect(paused.stderr).toContain('approval needed: [call_1]');
    expect(paused.stderr).toContain(`resume: agent-assistant resume --continuation ${file} --approve=call_1\n`);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as {
      format: string;
      settings: { workspace: string };
      continuation: { type: string; signature: string };
    };
    expect(stored).toMatchObject({ format: 'agent-assistant-continuation', settings: { workspace }, continuation: { type: 'approval' } });
    expect(stored.continuation.signature).toEqual(expect.any(String));

    const withoutSecret = await runBin(['resume', '--continuation', file, '--approve', 'call_1']);
    expect(withoutSecret.code).toBe(2);
    expect(withoutSecret.stderr).toContain('Run `agent-assistant secret init` once');
    expect(withoutSecret.stderr).toContain('or set AGENT_ASSISTANT_CONTINUATION_SECRET');

    const wrongKind = await runBin(['resume', '--continuation', file, '--answer', 'yes'], { env });
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.stderr).toContain('--approve ID or --reject ID');

    server.enqueue(toolThenAnswer('Approved and read: hello.')[1]!);
    const resumed = await runBin(['resume', '--continuation', file, '--approve', 'call_1'], { env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Approved and read: hello.\n');
    expect(JSON.stringify(server.requests.at(-1)!.body)).toContain('hello from the workspace');

    const again = await runBin(['resume', '--continuation', file, '--approve', 'call_1'], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already resumed');
  });

  it('secret init once: run --continuation-out and resume use the key file without the variable; the resumed summary counts the whole turn', async () => {
    const user = tempDir('agent-assistant-key-');
    const env = cliEnv(user, { XDG_CONFIG_HOME: join(user, 'config') });
    const keyFile = join(user, 'config', 'agent-assistant', 'continuation-secret');
    const init = await runBin(['secret', 'init'], { env });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toBe(`Wrote a new continuation key to ${keyFile} (mode 0600). \`run --continuation-out\` and \`resume\` use it when AGENT_ASSISTANT_CONTINUATION_SECRET is not set.\n`);
    expect(init.stdout + init.stderr).not.toContain(readFileSync(keyFile, 'utf8').trim());

    const file = join(user, 'paused.json');
    server.enqueue(toolThenAnswer('')[0]!);
    const paused = await runBin(runLocal('--prompt', 'Read the README', '--require-approval', 'workspace_read', '--continuation-out', file), { env });
    expect(paused.code, paused.stderr).toBe(3);
    expect(paused.stderr).toMatch(/\nawaiting_approval \(approval_required\) · 1 step · 0 tool calls · 210 in \/ 18 out tokens · cost 0\.000564 · \d+\.\d s\n$/);

    server.enqueue(toolThenAnswer('Approved and read: hello.')[1]!);
    const resumed = await runBin(['resume', '--continuation', file, '--approve', 'call_1'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe('Approved and read: hello.\n');
    expect(resumed.stderr).toMatch(
      /^completed \(answer_finalized\) · whole turn: 2 model calls · 1 tool call · 470 in \/ 39 out tokens · cost 0\.00125 · this run: \d+\.\d s\n$/,
    );

    const otherKey = await runBin(['resume', '--continuation', file, '--approve', 'call_1'], {
      env: cliEnv(user, { AGENT_ASSISTANT_CONTINUATION_SECRET: SECRET }),
    });
    expect(otherKey.code).toBe(2);
    expect(otherKey.stderr).toContain('does not match its signature');
  });

  it('--question-tool: the model asks (exit 3, question and choices shown), resume --answer sends the answer once, as the tool result', async () => {
    const file = join(home, 'question.json');
    const env = baseEnv({ AGENT_ASSISTANT_CONTINUATION_SECRET: SECRET });
    server.enqueue({ toolCalls: [{ id: 'ask_1', name: 'question', arguments: { question: 'Which city?', choices: ['Oslo', 'Bergen'] } }] });
    const args = ['run', '--profiles', profiles, '--profile', 'local', '--question-tool', '--prompt', 'Weather in my city?', '--continuation-out', file];
    const paused = await runBin(args, { env });
    expect(paused.code).toBe(3);
    expect(paused.stdout).toBe('Which city?\n');
    expect(paused.stderr).toContain('choices: Oslo · Bergen');
    expect(paused.stderr).toContain('--answer');
    expect((server.requests.at(-1)!.body as { tools: { function: { name: string } }[] }).tools.map((tool) => tool.function.name)).toEqual(['question']);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { settings: { questionTool?: boolean }; continuation: { type: string } };
    expect(stored).toMatchObject({ settings: { questionTool: true }, continuation: { type: 'clarification' } });

    server.enqueue({ text: 'Bergen: rain.' });
    const resumed = await runBin(['resume', '--continuation', file, '--answer', 'Bergen-9c1e'], { env });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Bergen: rain.\n');
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: unknown; tool_call_id?: string }[] }).messages;
    expect(messages.filter((message) => JSON.stringify(message.content).includes('Bergen-9c1e'))).toEqual([
      { role: 'tool', tool_call_id: 'ask_1', content: 'Bergen-9c1e' },
    ]);
  });

  it('--question-tool is for profiles: with --backend it is a usage error', async () => {
    const result = await runBin(['run', '--backend', 'claude-code', '--question-tool', '--prompt', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--question-tool is for profiles');
  });

  it('refuses a continuation file signed with another secret, running nothing', async () => {
    const file = join(home, 'foreign.json');
    server.enqueue(toolThenAnswer('')[0]!);
    const args = runLocal('--prompt', 'Read it', '--require-approval', 'workspace_read', '--continuation-out', file);
    expect((await runBin(args, { env: baseEnv({ AGENT_ASSISTANT_CONTINUATION_SECRET: SECRET }) })).code).toBe(3);
    const resumed = await runBin(['resume', '--continuation', file, '--reject', 'call_1'], {
      env: baseEnv({ AGENT_ASSISTANT_CONTINUATION_SECRET: 'another-secret-of-enough-length' }),
    });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('does not match its signature');
    expect(resumed.stderr).toContain('another AGENT_ASSISTANT_CONTINUATION_SECRET');
  });
});

describe('agent-assistant run --backend', () => {
  it('runs a local CLI backend in the workspace', async () => {
    const claude = fixtureExecutable(tempDir(), 'claude', 'fake-claude.mjs');
    const result = await runBin([
      'run',
      '--backend',
      'claude-code',
      '--backend-command',
      claude,
      '--workspace',
      workspace,
      '--prompt',
      'ping',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('PONG from fake');
    expect(result.stderr).toMatch(/^completed \(answer_finalized\)/);
  });

  it('shows a backend CLI’s own tool activity and plan as JSON lines, before the answer', async () => {
    const claude = fixtureExecutable(tempDir(), 'claude', 'fake-claude.mjs');
    const result = await runBin(['run', '--backend', 'claude-code', '--backend-command', claude, '--workspace', workspace, '--json', '--prompt', 'FAKE_TOOL check it']);
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; phase?: string; name?: string; command?: string; entries?: unknown[]; status?: string });
    const types = events.map((event) => event.type);
    const started = events.find((event) => event.type === 'tool_activity' && event.phase === 'started' && event.name === 'Bash');
    expect(started).toMatchObject({ command: 'echo TOOL_OK', iteration: 1 });
    expect(events.find((event) => event.type === 'tool_activity' && event.phase === 'finished' && event.name === 'Bash')).toMatchObject({ status: 'succeeded' });
    expect(events.find((event) => event.type === 'plan_update')?.entries).toHaveLength(2);
    expect(types.indexOf('tool_activity')).toBeLessThan(types.indexOf('text_delta'));
    expect(types.at(-1)).toBe('result');
  });

  it('Ctrl+C cancels the turn: exit 130, no child process left, continuation written', { timeout: 30_000 }, async () => {
    const dir = tempDir();
    const claude = fixtureExecutable(dir, 'claude', 'fake-claude.mjs');
    const file = join(dir, 'cancelled.json');
    // The fake CLI saves its session under $HOME/.fake-claude once it has read the prompt, then hangs.
    const sessions = join(dir, '.fake-claude');
    const env = baseEnv({ AGENT_ASSISTANT_CONTINUATION_SECRET: SECRET, HOME: dir });
    let binPid = 0;
    const running = runBin(
      ['run', '--backend', 'claude-code', '--backend-command', claude, '--prompt', 'FAKE_HANG please', '--continuation-out', file],
      {
        env,
        onSpawn: (pid) => (binPid = pid),
      },
    );
    const children = await new Promise<number[]>((resolve) => {
      const poll = setInterval(() => {
        if (!existsSync(sessions) || readdirSync(sessions).length === 0) return;
        clearInterval(poll);
        resolve(childrenOf(binPid));
      }, 20);
    });
    expect(children.length).toBeGreaterThan(0);
    process.kill(binPid, 'SIGINT');
    const result = await running;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('SIGINT: cancelling the turn');
    expect(result.stderr).toContain('deferred (cancelled)');
    for (const pid of children) expect(isAlive(pid), `child ${pid} is gone`).toBe(false);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { continuation: { type: string; state: { stopReason: string } } };
    expect(stored.continuation).toMatchObject({ type: 'deferred', state: { stopReason: 'cancelled' } });
  });
});

/** Direct children of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return found.stdout
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
}

describe('agent-assistant probe and profiles inspect', () => {
  it('probe lists the backends with version, path and capabilities', async () => {
    const claude = fixtureExecutable(tempDir(), 'claude', 'fake-claude.mjs');
    const result = await runBin([
      'probe',
      '--backend',
      'claude-code',
      '--backend',
      'codex',
      '--command',
      `claude-code=${claude}`,
      '--command',
      'codex=/nonexistent/codex',
    ]);
    expect(result.code).toBe(0);
    const [header, claudeRow, codexRow] = result.stdout.split('\n');
    expect(header).toMatch(/^BACKEND\s+FOUND\s+VERSION\s+PATH\s+CAPABILITIES$/);
    expect(claudeRow).toMatch(
      new RegExp(`^claude-code\\s+yes\\s+2\\.1\\.332\\s+${claude.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+tools:native-iterative`),
    );
    expect(codexRow).toMatch(/^codex\s+no\s+-/);
    const json = await runBin(['probe', '--backend', 'claude-code', '--command', `claude-code=${claude}`, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject([{ id: 'claude-code', available: true, version: '2.1.332' }]);
  });

  it('probe checks a session backend by its protocol handshake', async () => {
    const codex = fixtureExecutable(tempDir(), 'codex', '../../sessions/codex-app-server/__fixtures__/fake-codex-app-server.mjs');
    const acp = fixtureExecutable(tempDir(), 'gemini', '../../sessions/acp/__fixtures__/fake-acp-agent.mjs');
    const args = ['probe', '--backend', 'codex-app-server', '--backend', 'gemini-acp', '--command', `codex-app-server=${codex}`, '--command', `gemini-acp=${acp}`];
    const result = await runBin(args);
    expect(result.code).toBe(0);
    const [, geminiRow, codexRow] = result.stdout.split('\n'); // session backends in their canonical order
    expect(codexRow).toMatch(/^codex-app-server\s+yes\s+0\.171\.0\s+\S+\s+tools:native-iterative resume:opaque-resume approvals:native streaming steer$/);
    expect(geminiRow).toMatch(/^gemini-acp\s+yes\s+0\.0\.1\s+\S+\s+.*approvals:native streaming$/);
    const json = await runBin([...args, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject([
      { id: 'gemini-acp', available: true, handshake: 'answered', protocolVersion: 1, engineCapabilities: ['loadSession'] },
      { id: 'codex-app-server', available: true, handshake: 'answered', engineCapabilities: [] },
    ]);
    const missing = await runBin(['probe', '--sessions', '--backend', 'claude-code', '--command', 'claude-code-session=/nonexistent/claude']);
    expect(missing.stdout.split('\n').slice(1, 9).map((row) => row.split(/\s+/)[0])).toEqual([
      'claude-code',
      'gemini-acp',
      'opencode-acp',
      'qwen-acp',
      'copilot-acp',
      'hermes-acp',
      'codex-app-server',
      'claude-code-session',
    ]);
    expect(missing.stdout).toContain('claude-code-session: Claude Code (stream-json session) is not available: `/nonexistent/claude` was not found.');
  });

  it('profiles inspect reports whether the key variable is set, never its value', async () => {
    const missing = await runBin(['profiles', 'inspect', '--profiles', profiles]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/^local\s+openai-chat\s+fake-model\s+127\.0\.0\.1:\d+ \(http\)\s+none needed\s+not verified$/m);
    expect(missing.stdout).toMatch(/^router\s+.*CLI_TEST_ROUTER_API_KEY not set\s+no$/m);
    expect(missing.stdout).toContain('router: The environment variable CLI_TEST_ROUTER_API_KEY is not set.');

    const key = 'sk-or-v1-super-secret-value';
    const present = await runBin(['profiles', 'inspect', '--profiles', profiles, '--profile', 'router', '--json'], {
      env: baseEnv({ CLI_TEST_ROUTER_API_KEY: key }),
    });
    expect(present.code).toBe(0);
    expect(JSON.parse(present.stdout)).toMatchObject([
      { id: 'router', secret: { name: 'CLI_TEST_ROUTER_API_KEY', present: true }, runnable: 'not_verified' },
    ]);
    expect(present.stdout + present.stderr).not.toContain(key);

    const alias = await runBin(['profiles', 'inspect', '--profiles', profiles, '--profile', 'fast']);
    expect(alias.stdout).toMatch(/^fast → local\s/m);
  });
});

const runOnTerminal = (args: string[]) => runCliOnTerminal(args, { cwd: home, env: baseEnv() });

describe.runIf(hasScript)('agent-assistant run on a terminal (script pseudo-terminal)', () => {
  it('shows the runner, tool activity and the spinner on stderr, the answer, and the summary', async () => {
    server.enqueue(...toolThenAnswer('The README says hello.'));
    const { code, screen } = await runOnTerminal(runLocal('--prompt', 'What does the README say?'));
    expect(code).toBe(0);
    expect(screen).toContain('agent-assistant · profile local (openai-chat fake-model)\n');
    expect(screen).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] thinking…/);
    expect(screen).toContain('  → workspace_read {"path":"README.md"}\n');
    expect(screen).toContain('  ✓ workspace_read\n');
    expect(screen).toContain('The README says hello.\n');
    expect(screen).toMatch(
      /completed \(answer_finalized\) · 2 steps · 1 tool call · 470 in \/ 39 out tokens · cost 0\.00125 · [\d.]+ s\n$/,
    );
  });

  it('shows a backend CLI’s tool activity and plan on stderr', async () => {
    const claude = fixtureExecutable(tempDir(), 'claude', 'fake-claude.mjs');
    const args = ['run', '--backend', 'claude-code', '--backend-command', claude, '--workspace', workspace, '--prompt', 'FAKE_TOOL check it'];
    const { code, screen } = await runOnTerminal(args);
    expect(code).toBe(0);
    expect(screen).toContain('  → Bash echo TOOL_OK\n');
    expect(screen).toContain('  ✓ Bash\n');
    expect(screen).toMatch(/ {2}plan: ▸ Run the check · ○ Report\n/);
  });
});
