// The `prepareRun` hook of LocalCommandExecutionAdapter: what it prepares reaches the process and
// `parseOutput`, its `finish` runs whatever happens, and its failure fails the turn before a start.
import { describe, expect, it } from 'vitest';
import { executionRequest, PLAIN_CAPABILITIES } from './__fixtures__/test-helpers.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCommandAdapterConfig, LocalCommandPreparedRun } from './local-command-options.js';

const print = 'process.stdout.write(JSON.stringify({ argv: process.argv.slice(1), home: process.env.PREP_HOME, mode: process.env.PREP_MODE }))';

function adapter(prepare: () => Promise<LocalCommandPreparedRun>, extra: Partial<LocalCommandAdapterConfig> = {}) {
  return new LocalCommandExecutionAdapter({
    backendId: 'prepared',
    command: '/nonexistent/overridden-by-prepare',
    capabilities: PLAIN_CAPABILITIES,
    inheritEnv: ['PATH'],
    prepareRun: prepare,
    buildArgs: (_request, { prepared }) => ['-e', print, prepared?.['file'] ?? 'none'],
    parseOutput: (stdout, { finished }) => ({ text: `${stdout} ${JSON.stringify(finished ?? null)}` }),
    ...extra,
  });
}

describe('LocalCommandExecutionAdapter prepareRun', () => {
  it('starts the prepared command with its values and env (the config env wins), then finishes before parseOutput', async () => {
    const steps: string[] = [];
    const result = await adapter(
      async () => ({
        command: process.execPath,
        env: { PREP_HOME: '/private/home', PREP_MODE: 'prepared' },
        values: { file: '/private/prompt.md' },
        finish: async () => {
          steps.push('finish');
          return { report: 'read back' };
        },
      }),
      { env: { PREP_MODE: 'caller' } },
    ).execute(executionRequest('hi'));
    expect(result.status).toBe('completed');
    expect(result.output?.text).toBe(`${JSON.stringify({ argv: ['/private/prompt.md'], home: '/private/home', mode: 'caller' })} {"report":"read back"}`);
    expect(steps).toEqual(['finish']);
  });

  it('runs finish when the process cannot start, and ignores what finish throws', async () => {
    let finished = 0;
    const result = await adapter(async () => ({
      finish: async () => {
        finished += 1;
        throw new Error('cleanup failed');
      },
    })).execute(executionRequest('hi'));
    expect(result.status).toBe('failed');
    expect(result.error?.message).toContain('/nonexistent/overridden-by-prepare');
    expect(finished).toBe(1);
  });

  it('runs finish when buildArgs throws after a successful prepare', async () => {
    let finished = 0;
    const result = await adapter(
      async () => ({ command: process.execPath, finish: async () => void (finished += 1) }),
      {
        buildArgs: () => {
          throw new Error('no args');
        },
      },
    ).execute(executionRequest('hi'));
    expect(result.error?.message).toBe('prepared command: could not prepare the command: no args');
    expect(finished).toBe(1);
  });

  it('fails the turn before anything starts when prepareRun rejects', async () => {
    const result = await adapter(async () => {
      throw new Error('no private directory');
    }).execute(executionRequest('hi'));
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: false } });
    expect(result.error?.message).toBe('prepared command: could not prepare the command: no private directory');
  });
});
