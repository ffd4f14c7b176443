import { afterEach, describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { MAX_ANSWER_CHARS } from '../execution/answer-cap.js';
import type { ExecutionRequest, ExecutionStreamEvent } from '../execution/types.js';
import {
  cleanupTempDirs,
  executionRequest,
  fixture,
  PLAIN_CAPABILITIES,
  tempDir,
} from './__fixtures__/test-helpers.js';
import { createLocalCommandAdapter, LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';

const node = process.execPath;
const misbehave = fixture('misbehave.mjs');

/** A LocalCommand running the misbehave fixture in `mode`, reading the `text` field of its JSON. */
function misbehaving(mode: string, extra: Partial<LocalCommandAdapterConfig> = {}) {
  return new LocalCommandExecutionAdapter({
    backendId: 'fixture',
    command: node,
    capabilities: PLAIN_CAPABILITIES,
    buildArgs: () => [misbehave, mode],
    parseOutput: (stdout) => {
      const parsed = JSON.parse(stdout) as { text?: unknown };
      return typeof parsed.text === 'string' ? { text: parsed.text } : null;
    },
    ...extra,
  });
}

afterEach(cleanupTempDirs);

describe('LocalCommandExecutionAdapter — the seed README example', () => {
  it('runs verbatim: backendId, command, capabilities, buildArgs(request), parseOutput(stdout)', async () => {
    const adapter = new LocalCommandExecutionAdapter({
      backendId: 'local-echo',
      command: 'node',
      capabilities: {
        toolUse: 'none',
        structuredToolCalls: false,
        continuationSupport: 'none',
        approvalInterrupts: 'none',
        traceDepth: 'minimal',
        attachments: false,
      },
      buildArgs(request) {
        return ['-e', 'process.stdout.write(JSON.stringify({ answer: process.argv[1] }))', '--', request.message.text];
      },
      parseOutput(stdout) {
        const parsed = JSON.parse(stdout) as { answer?: string };
        return parsed.answer ? { text: `Echo: ${parsed.answer}` } : null;
      },
    });
    const result = await adapter.execute(executionRequest('-rf looks like a flag'));
    expect(result).toMatchObject({ backendId: 'local-echo', status: 'completed', output: { text: 'Echo: -rf looks like a flag' } });
    expect(result.metadata).toMatchObject({ exitCode: 0 });
    expect(result.trace?.events?.map((event) => event.type)).toEqual(['model_started', 'model_completed']);
  });

  it('has a factory with the same behaviour', async () => {
    const adapter = createLocalCommandAdapter({
      backendId: 'factory',
      command: node,
      capabilities: PLAIN_CAPABILITIES,
      buildArgs: () => [misbehave, 'print', '{"text":"from factory"}'],
      parseOutput: (stdout) => ({ text: (JSON.parse(stdout) as { text: string }).text }),
    });
    expect(adapter).toBeInstanceOf(LocalCommandExecutionAdapter);
    expect(await adapter.execute(executionRequest('hi'))).toMatchObject({ status: 'completed', output: { text: 'from factory' } });
  });
});

describe('LocalCommandExecutionAdapter — options are checked at construction', () => {
  const valid: LocalCommandAdapterConfig = {
    backendId: 'x',
    command: 'node',
    capabilities: PLAIN_CAPABILITIES,
    buildArgs: () => [],
    parseOutput: () => null,
  };
  it.each([
    ['backendId', { backendId: '' }],
    ['command', { command: '   ' }],
    ['capabilities.toolUse', { capabilities: { ...PLAIN_CAPABILITIES, toolUse: 'sometimes' } }],
    ['buildArgs', { buildArgs: 'not a function' }],
    ['parseOutput', { parseOutput: undefined }],
    ['stdin', { stdin: 'text' }],
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: 1.5 }],
    ['killGraceMs', { killGraceMs: -1 }],
    ['maxOutputBytes', { maxOutputBytes: Number.NaN }],
    ['env.SECRET', { env: { SECRET: 42 } }],
    ['inheritEnv', { inheritEnv: 'PATH' }],
    ['cwd', { cwd: '' }],
  ])('rejects a bad %s with HarnessConfigError naming it', (field, patch) => {
    const attempt = () => new LocalCommandExecutionAdapter({ ...valid, ...patch } as unknown as LocalCommandAdapterConfig);
    expect(attempt).toThrow(HarnessConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as HarnessConfigError).field).toBe(field);
      expect((error as HarnessConfigError).code).toBe('HARNESS_ERR_INVALID_CONFIG');
    }
  });

  it('copies capabilities so callers cannot mutate them', () => {
    const capabilities = { ...PLAIN_CAPABILITIES, notes: ['a'] };
    const adapter = new LocalCommandExecutionAdapter({ ...valid, capabilities });
    capabilities.notes.push('b');
    const described = adapter.describeCapabilities();
    described.notes?.push('c');
    expect(adapter.describeCapabilities().notes).toEqual(['a']);
  });
});

describe('LocalCommandExecutionAdapter — process input', () => {
  it('closes stdin by default, so a program reading stdin sees EOF at once', async () => {
    const result = await misbehaving('stdin-forever').execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'completed', output: { text: 'read 0 bytes' } });
  });

  it('writes `stdin(request)` and closes it; large prompts never go through argv', async () => {
    const prompt = `-- ${'x'.repeat(300_000)} $(rm -rf /) "quoted" \u00e9`;
    let seen: { stdin: string; argv: string[] } | undefined;
    const adapter = misbehaving('echo', {
      stdin: (request) => request.message.text,
      parseOutput: (stdout) => {
        seen = JSON.parse(stdout) as { stdin: string; argv: string[] };
        return { text: 'ok' };
      },
    });
    expect((await adapter.execute(executionRequest(prompt))).status).toBe('completed');
    expect(seen?.stdin).toBe(prompt);
    expect(seen?.argv).toEqual([]);
  });

  it('passes arguments without a shell: metacharacters arrive literally', async () => {
    let argv: string[] = [];
    const adapter = misbehaving('echo', {
      buildArgs: () => [misbehave, 'echo', '$HOME', '`id`', 'a;b', '*'],
      parseOutput: (stdout) => {
        argv = (JSON.parse(stdout) as { argv: string[] }).argv;
        return { text: 'ok' };
      },
    });
    await adapter.execute(executionRequest('hi'));
    expect(argv).toEqual(['$HOME', '`id`', 'a;b', '*']);
  });

  it('passes only allow-listed parent variables plus `env`', async () => {
    process.env['HARNESS_TEST_SECRET'] = 'must-not-leak';
    process.env['HARNESS_TEST_ALLOWED_ONE'] = 'visible';
    try {
      let env: Record<string, string> = {};
      const adapter = misbehaving('echo', {
        env: { EXPLICIT: 'yes', PATH: '/explicit/bin' },
        inheritEnv: ['PATH', 'HOME', 'HARNESS_TEST_ALLOWED_*'],
        parseOutput: (stdout) => {
          env = (JSON.parse(stdout) as { env: Record<string, string> }).env;
          return { text: 'ok' };
        },
      });
      await adapter.execute(executionRequest('hi'));
      expect(env['HARNESS_TEST_SECRET']).toBeUndefined();
      expect(env['HARNESS_TEST_ALLOWED_ONE']).toBe('visible');
      expect(env['EXPLICIT']).toBe('yes');
      expect(env['PATH']).toBe('/explicit/bin');
      expect(Object.keys(env).filter((name) => !name.startsWith('HARNESS_TEST_') && !['EXPLICIT', 'PATH', 'HOME'].includes(name))).toEqual([]);
    } finally {
      delete process.env['HARNESS_TEST_SECRET'];
      delete process.env['HARNESS_TEST_ALLOWED_ONE'];
    }
  });

  it('inherits no credentials by default', async () => {
    process.env['ANTHROPIC_API_KEY'] = 'sk-should-not-leak';
    try {
      let env: Record<string, string> = {};
      await misbehaving('echo', {
        parseOutput: (stdout) => {
          env = (JSON.parse(stdout) as { env: Record<string, string> }).env;
          return { text: 'ok' };
        },
      }).execute(executionRequest('hi'));
      expect(env['ANTHROPIC_API_KEY']).toBeUndefined();
      expect(env['PATH']).toBe(process.env['PATH']);
    } finally {
      delete process.env['ANTHROPIC_API_KEY'];
    }
  });

  it('runs in `cwd`', async () => {
    const dir = tempDir();
    let cwd = '';
    await misbehaving('echo', {
      cwd: dir,
      parseOutput: (stdout) => {
        cwd = (JSON.parse(stdout) as { cwd: string }).cwd;
        return { text: 'ok' };
      },
    }).execute(executionRequest('hi'));
    expect(cwd).toBe(dir);
  });

  it('hands buildArgs, stdin and parseOutput the incoming continuation (from metadata too)', async () => {
    const contexts: unknown[] = [];
    const adapter = misbehaving('print', {
      buildArgs: (_request, context) => {
        contexts.push(context);
        return [misbehave, 'print', '{"text":"ok"}'];
      },
      parseOutput: (stdout, context) => {
        contexts.push(context.continuation);
        return { text: (JSON.parse(stdout) as { text: string }).text };
      },
    });
    const continuation = { kind: 'x.session', continuationId: 'abc' };
    const result = await adapter.execute(executionRequest('hi', { metadata: { backendContinuation: continuation } }));
    expect(contexts).toEqual([{ incomingContinuation: continuation, continuation }, continuation]);
    expect(result.continuation).toEqual(continuation);
    expect(result.metadata?.['continuation']).toEqual(continuation);
  });
});

describe('LocalCommandExecutionAdapter — output and exit handling', () => {
  it('passes parsed usage, structured output, status and metadata through', async () => {
    const adapter = misbehaving('print', {
      buildArgs: () => [misbehave, 'print', 'anything'],
      parseOutput: () => ({
        text: 'Which file?',
        status: 'needs_clarification',
        structured: { files: ['a', 'b'] },
        usage: { inputTokens: 3, outputTokens: 4, costUnits: 0.5 },
        continuation: { continuationId: 'session-9' },
        metadata: { custom: true },
      }),
    });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result).toMatchObject({
      status: 'needs_clarification',
      output: { text: 'Which file?', structured: { files: ['a', 'b'] } },
      usage: { inputTokens: 3, outputTokens: 4, costUnits: 0.5 },
      continuation: { continuationId: 'session-9' },
      metadata: { custom: true, exitCode: 0 },
    });
  });

  it('reports null from parseOutput as invalid_backend_output with a bounded stdout preview', async () => {
    const result = await misbehaving('not-json', { parseOutput: () => null }).execute(executionRequest('hi'));
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'invalid_backend_output', retryable: false });
    const preview = result.metadata?.['stdoutPreview'] as string;
    expect(preview.startsWith('this is not the JSON')).toBe(true);
    expect(preview.length).toBeLessThan(600);
    expect(preview).toMatch(/more characters\)$/);
  });

  it('reports a throwing parseOutput as invalid_backend_output, naming the error', async () => {
    const result = await misbehaving('not-json').execute(executionRequest('hi'));
    expect(result.error?.code).toBe('invalid_backend_output');
    expect(result.error?.message).toMatch(/could not be read \(.*JSON/);
  });

  it('reports a crash (exit 1, stack on stderr) as a non-retryable backend_execution_error', async () => {
    const result = await misbehaving('crash').execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toMatch(/exited with code 1/);
    expect(result.metadata?.['stderrTail']).toMatch(/boom: the fixture crashed/);
    expect(result.trace?.events?.at(-1)).toMatchObject({ type: 'failure' });
  });

  it('reports death by a signal it did not send as retryable', async () => {
    const result = await misbehaving('signal').execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
    expect(result.error?.message).toMatch(/killed by SIGKILL/);
  });

  it('reports a non-zero exit with a JSON error body as failed, even if parseOutput could read it', async () => {
    const adapter = misbehaving('json-error', { parseOutput: (stdout) => ({ text: stdout }) });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false }, metadata: { exitCode: 2 } });
    expect(result.error?.message).toMatch(/code 2: fatal: the fixture failed on purpose/);
  });

  it('lets parseOutput explain a non-zero exit with an explicit status', async () => {
    const adapter = misbehaving('json-error', {
      parseOutput: (stdout, context) => ({
        status: 'failed',
        error: { code: 'backend_execution_error', message: (JSON.parse(stdout) as { error: string }).error, retryable: context.exitCode === 2 },
      }),
    });
    expect((await adapter.execute(executionRequest('hi'))).error).toEqual({
      code: 'backend_execution_error',
      message: 'the fixture failed on purpose',
      retryable: true,
    });
  });

  it('asks isRetryableExit about unexplained exits', async () => {
    const seen: unknown[] = [];
    const adapter = misbehaving('exit', {
      buildArgs: () => [misbehave, 'exit', '75'],
      isRetryableExit: (exit) => {
        seen.push(exit);
        return exit.exitCode === 75;
      },
    });
    expect((await adapter.execute(executionRequest('hi'))).error?.retryable).toBe(true);
    expect(seen).toEqual([{ exitCode: 75, exitSignal: null, stderr: 'exiting with 75\n' }]);
  });
});

describe('LocalCommandExecutionAdapter — failures before the process runs are results, not rejections', () => {
  it('turns a throwing buildArgs into a failed result', async () => {
    const adapter = misbehaving('echo', {
      buildArgs: () => {
        throw new Error('cannot build');
      },
    });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toMatch(/could not prepare the command: cannot build/);
  });

  it('turns a synchronous spawn throw (NUL in an argument) into a failed result', async () => {
    const result = await misbehaving('echo', { buildArgs: () => ['bad\0arg'] }).execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toMatch(/could not start/);
  });

  it('rejects non-string arguments from buildArgs', async () => {
    const adapter = misbehaving('echo', { buildArgs: () => [42] as unknown as string[] });
    expect((await adapter.execute(executionRequest('hi'))).error?.message).toMatch(/buildArgs must return an array of strings/);
  });

  it('says what to do when the command does not exist', async () => {
    const adapter = misbehaving('echo', { command: 'definitely-not-a-real-cli-7f3a', commandLabel: 'My CLI' });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', retryable: false },
      metadata: { errorCode: 'HARNESS_ERR_BACKEND_UNAVAILABLE', systemError: 'ENOENT' },
    });
    expect(result.error?.message).toBe(
      'My CLI could not start: `definitely-not-a-real-cli-7f3a` was not found. Install it or set `command` to its full path.',
    );
  });

  it('names a missing working directory instead of blaming the command', async () => {
    const result = await misbehaving('echo', { cwd: '/definitely/not/here' }).execute(executionRequest('hi'));
    expect(result.error?.message).toMatch(/working directory \/definitely\/not\/here does not exist/);
  });

  it('says so when the command is not executable', async () => {
    const result = await misbehaving('echo', { command: misbehave }).execute(executionRequest('hi'));
    expect(result.error?.message).toMatch(/is not an executable program \(EACCES\)/);
  });

  it('answers an unsupported request without spawning', async () => {
    let built = false;
    const adapter = misbehaving('echo', {
      buildArgs: () => {
        built = true;
        return [];
      },
    });
    const request: ExecutionRequest = executionRequest('hi', { tools: [{ name: 'lookup', description: 'x' }] });
    expect(adapter.negotiate(request)).toMatchObject({ supported: false });
    const result = await adapter.execute(request);
    expect(result).toMatchObject({ status: 'unsupported', error: { code: 'unsupported_capability' } });
    expect(built).toBe(false);
  });

  it('adds its own negotiation reasons: warnings become degradation', async () => {
    const adapter = misbehaving('print', {
      buildArgs: () => [misbehave, 'print', '{"text":"ok"}'],
      negotiate: () => [{ code: 'other', message: 'slow machine', severity: 'warning' }],
    });
    const negotiation = adapter.negotiate(executionRequest('hi'));
    expect(negotiation).toMatchObject({ supported: true, degraded: true });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result.degradation).toEqual([{ code: 'other', message: 'slow machine', severity: 'warning' }]);
    expect(result.trace?.summary?.degraded).toBe(true);
  });
});

describe('LocalCommandExecutionAdapter — hostile output', () => {
  it('cuts an answer longer than MAX_ANSWER_CHARS, marks it, and streams no more than that', async () => {
    const events: ExecutionStreamEvent[] = [];
    const adapter = new LocalCommandExecutionAdapter({
      backendId: 'flood',
      command: node,
      capabilities: PLAIN_CAPABILITIES,
      buildArgs: () => ['-e', 'for (let i = 0; i < 5; i++) process.stdout.write("x".repeat(1000000) + "\\n")'],
      parseOutput: (stdout) => ({ text: stdout.replaceAll('\n', '') }),
      streamEvents: () => (line) => [{ type: 'text_delta', text: line }],
    });
    const result = await adapter.execute(executionRequest('flood'), { onEvent: (event) => events.push(event) });
    expect(result.status).toBe('completed');
    expect(result.output?.text).toBe('x'.repeat(MAX_ANSWER_CHARS));
    expect(result.metadata).toMatchObject({ answerTruncated: true });
    expect(events.reduce((sum, event) => sum + (event.type === 'text_delta' ? event.text.length : 0), 0)).toBe(MAX_ANSWER_CHARS);
  });

  it('never shows a secret of its environment that the program prints to stderr before failing', async () => {
    const secret = 'canary-S3cr3t-local-0a1b2c';
    const adapter = createLocalCommandAdapter({
      backendId: 'leaky',
      command: node,
      capabilities: PLAIN_CAPABILITIES,
      env: { SERVICE_API_KEY: secret },
      buildArgs: () => ['-e', 'process.stderr.write("fatal: auth failed for key " + process.env.SERVICE_API_KEY + "\\n"); process.exit(5)'],
      parseOutput: () => null,
    });
    const result = await adapter.execute(executionRequest('hi'));
    expect(result.error?.message).toMatch(/exited with code 5: fatal: auth failed for key \[REDACTED\]$/);
    expect(JSON.stringify(result)).not.toContain(secret);
  });
});
