// An unknown flag is a usage error (exit 2) that names the closest known flag of that command
// when one is within two edits, in process through `runCliMain`.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../local/__fixtures__/test-helpers.js';
import { cliEnv, runCliInProcess } from './__fixtures__/cli-process.js';

afterEach(cleanupTempDirs);

function cli(argv: string[]) {
  const home = tempDir('agent-assistant-flags-');
  return runCliInProcess(argv, { cwd: home, env: cliEnv(home) });
}

describe('unknown flags', () => {
  it.each([
    [['run', '--worksapce', 'ws', '--prompt', 'hi'], '--worksapce', 'run', '--workspace'],
    [['run', '--Workspace=ws'], '--Workspace=ws', 'run', '--workspace'],
    [['run', '--profle', 'local'], '--profle', 'run', '--profile'],
    [['run', '-prompt', 'hi'], '-prompt', 'run', '--prompt'],
    [['probe', '--sesions'], '--sesions', 'probe', '--sessions'],
    [['probe', '--timeout-sm', '5'], '--timeout-sm', 'probe', '--timeout-ms'],
  ])('%j suggests the closest flag', async (argv, given, command, known) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Unknown argument "${given}" for \`agent-assistant ${command}\`. Did you mean ${known}? See \`agent-assistant ${command} --help\`.`);
    expect(result.stdout).toBe('');
  });

  it.each([
    ['a flag close to none', ['run', '--bogus']],
    ['a stray word', ['run', 'stray']],
    ['a 5000-character flag', ['probe', `--${'x'.repeat(5000)}`]],
  ])('names no flag for %s', async (_, argv) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown argument ".*" for `agent-assistant \w+`\. See `agent-assistant \w+ --help`\./);
    expect(result.stderr).not.toContain('Did you mean');
  });
});
