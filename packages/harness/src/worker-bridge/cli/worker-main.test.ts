// The worker program's flags, environment fallbacks, log lines and signal handling, over the
// in-memory relay (the real broker runs in worker-bridge.broker.test.ts).
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../local/__fixtures__/test-helpers.js';
import { fullRequest, groupAlive, processGroupOf, requestBody } from '../__fixtures__/bridge-test-helpers.js';
import { decodeExecutionResultMessage } from '../../agent-relay/protocol/execution-result-message.js';
import { createMemoryRelay } from '../../testing/memory-relay.js';
import { parseWorkerArgs, workerUsage } from './worker-args.js';
import { formatWorkerEvent, runWorkerMain, type WorkerMainIo } from './worker-main.js';

describe('parseWorkerArgs', () => {
  it('applies defaults', () => {
    expect(parseWorkerArgs([], {}, '/project')).toEqual({
      help: false,
      cli: 'claude',
      channel: 'specialists',
      workerName: 'specialist-worker',
      model: undefined,
      timeoutMs: 120_000,
      cwd: '/project',
      concurrency: 2,
      command: undefined,
      script: undefined,
      allowFrom: [],
    });
  });

  it('reads flags in both forms, and environment fallbacks below them', () => {
    const env = { RELAY_CHANNEL: 'env-channel', RELAY_WORKER: 'env-worker', BYOH_WORKER_TIMEOUT_MS: '5000', BYOH_WORKER_CLI: 'codex' };
    const args = parseWorkerArgs(['--worker-name=flag-worker', '--model', 'gpt-5', '--concurrency', '4', '--allow-from', 'a, b'], env, '/p');
    expect(args).toMatchObject({ cli: 'codex', channel: 'env-channel', workerName: 'flag-worker', model: 'gpt-5', timeoutMs: 5000, concurrency: 4, allowFrom: ['a', 'b'] });
  });

  it.each([
    [['--bogus'], /Unknown argument "--bogus"/],
    [['--cli'], /--cli needs a value/],
    [['--cli', 'vim'], /--cli must be one of/],
    [['--timeout-ms', '-5'], /--timeout-ms must be an integer/],
    [['--timeout-ms', '1e3'], /--timeout-ms must be an integer/],
    [['--concurrency', '0'], /--concurrency must be an integer/],
    [['--script', 'cat'], /--script is for --cli bash only/],
    [['--cli', 'bash', '--model', 'x'], /--model does not apply/],
    [['stray'], /Unknown argument "stray"/],
    [['--chanel', 'x'], 'Unknown argument "--chanel" for `agent-assistant-worker`. Did you mean --channel? See `agent-assistant-worker --help`.'],
    [['--worker-nmae=w'], 'Did you mean --worker-name?'],
    [['--cli', 'codex', '--cli', 'claude'], '--cli is given twice; give it once.'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseWorkerArgs(argv, {}, '/p')).toThrow(message);
  });

  it('refuses an invalid environment value too', () => {
    expect(() => parseWorkerArgs([], { BYOH_WORKER_TIMEOUT_MS: 'soon' }, '/p')).toThrow(/--timeout-ms/);
  });

  it('documents every flag with its environment variable', () => {
    for (const flag of ['--cli', '--channel', '--worker-name', '--model', '--timeout-ms', '--cwd', '--concurrency', '--help', 'RELAY_CHANNEL']) {
      expect(workerUsage()).toContain(flag);
    }
  });
});

function testIo(argv: string[], relay = createMemoryRelay()) {
  const lines: string[] = [];
  const errors: string[] = [];
  let printed = '';
  let signal: ((name: string) => void) | undefined;
  let shutdowns = 0;
  const logged: ((line: string) => void)[] = [];
  const io: WorkerMainIo = {
    argv,
    env: {},
    cwd: process.cwd(),
    print: (text) => (printed += text),
    log: (line) => {
      lines.push(line);
      for (const listener of logged.splice(0)) listener(line);
    },
    error: (line) => errors.push(line),
    onSignal: (listener) => {
      signal = listener;
      return () => (signal = undefined);
    },
    connect: () => Promise.resolve(Object.assign(relay, { shutdown: () => Promise.resolve(void (shutdowns += 1)) })),
  };
  return {
    io,
    relay,
    lines,
    errors,
    printed: () => printed,
    shutdowns: () => shutdowns,
    signal: (name: string) => signal?.(name),
    nextLine: () => new Promise<string>((resolve) => logged.push(resolve)),
  };
}

describe('formatWorkerEvent', () => {
  it('keeps outside text on one line', () => {
    const line = formatWorkerEvent({ type: 'message_ignored', reason: 'foreign', from: 'evil\nrequest x: completed', detail: '' });
    expect(line).toBe('ignored a message from evil\\nrequest x: completed: foreign');
    expect(line).not.toContain('\n');
  });
});

afterEach(() => cleanupTempDirs());

describe('runWorkerMain', () => {
  it('prints help and exits 0; a bad flag exits 2 with the reason', async () => {
    const help = testIo(['--help']);
    expect(await runWorkerMain(help.io)).toBe(0);
    expect(help.printed()).toContain('Usage: agent-assistant-worker');
    const bad = testIo(['--cli', 'vim']);
    expect(await runWorkerMain(bad.io)).toBe(2);
    expect(bad.errors[0]).toMatch(/^agent-assistant-worker: --cli must be one of/);
  });

  it('exits 1 with a clear line when the broker cannot be reached', async () => {
    const test = testIo(['--cli', 'bash']);
    test.io.connect = () => Promise.reject(new Error('No Agent Relay broker found.'));
    expect(await runWorkerMain(test.io)).toBe(1);
    expect(test.errors).toEqual(['agent-assistant-worker: could not connect to the Agent Relay broker: No Agent Relay broker found.']);
  });

  it('serves requests with one log line each, and stops on a signal: bridge disposed, relay shut down, exit 0', async () => {
    const test = testIo(['--cli', 'bash', '--worker-name', 'w', '--script', 'tr a-z A-Z']);
    const ready = test.nextLine();
    const exit = runWorkerMain(test.io);
    expect(await ready).toMatch(/^worker w ready on channel specialists \(cli bash/);
    const reply = test.relay.nextMessage('orchestrator');
    const finished = test.nextLine();
    const { requestId, text } = requestBody(fullRequest('hello'));
    test.relay.deliver({ from: 'orchestrator', target: 'w', text });
    const decoded = decodeExecutionResultMessage((await reply).text);
    expect(decoded.ok && decoded.message.executionResult.output?.text).toContain('HELLO');
    expect(await finished).toMatch(new RegExp(`^request ${requestId} turn turn-1 from orchestrator: completed in \\d+ ms$`));
    test.signal('SIGTERM');
    expect(await exit).toBe(0);
    expect(test.shutdowns()).toBe(1);
    expect(test.relay.subscriberCount()).toBe(0);
    expect(test.lines.at(-1)).toBe('stopped');
    expect(test.lines.filter((line) => line.startsWith('request '))).toHaveLength(1);
  });

  it('a second signal stops the runs in progress at once (the first lets them finish)', async () => {
    const cwd = tempDir();
    execFileSync('mkfifo', [join(cwd, 'started.fifo')]);
    const test = testIo(['--cli', 'bash', '--worker-name', 'w', '--cwd', cwd, '--script', 'echo $$ > started.fifo; exec sleep 30']);
    const ready = test.nextLine();
    const exit = runWorkerMain(test.io);
    await ready;
    const started = readFile(join(cwd, 'started.fifo'), 'utf8');
    test.relay.deliver({ from: 'orchestrator', target: 'w', text: requestBody(fullRequest('long')).text });
    const group = processGroupOf(Number((await started).trim()));
    expect(groupAlive(group)).toBe(true);
    const stopping = test.nextLine();
    test.signal('SIGINT');
    expect(await stopping).toBe('SIGINT: stopping (waiting up to 10000 ms for 1 run(s))');
    test.signal('SIGINT');
    expect(await exit).toBe(0);
    expect(groupAlive(group)).toBe(false);
    expect(test.lines).toContain('SIGINT again: stopping runs in progress now');
    expect(test.lines.find((line) => line.startsWith('request '))).toMatch(/: failed \(backend_execution_error\)/);
  });
});
