import { cp, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The built ./agent-relay entry, copied where no node_modules can be found, run by plain Node (not
// the test runner's resolver): the optional peer @agent-relay/harness-driver is missing for real.
const dist = fileURLToPath(new URL('../../../dist/', import.meta.url));
let copy: string | undefined;

afterAll(async () => {
  if (copy !== undefined) await rm(copy, { recursive: true, force: true });
});

describe('RelayAdapter without @agent-relay/harness-driver', () => {
  it('rejects start() with a HarnessConfigError naming the package and the install command', async () => {
    expect(existsSync(join(dist, 'agent-relay.js')), 'build the package first (npm test does)').toBe(true);
    copy = await mkdtemp(join(tmpdir(), 'relay-no-peer-'));
    await cp(dist, copy, { recursive: true, filter: (source) => !source.endsWith('.map') });
    const script = `
      const { RelayAdapter } = await import(${JSON.stringify(pathToFileURL(join(copy, 'agent-relay.js')).href)});
      const error = await new RelayAdapter({ baseUrl: 'http://127.0.0.1:9' }).start().catch((caught) => caught);
      console.log(JSON.stringify({ name: error?.name, code: error?.code, field: error?.field, message: error?.message }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: copy, env: { PATH: process.env['PATH'] ?? '' } });
    const error = JSON.parse(stdout) as { name: string; code: string; field: string; message: string };
    expect(error).toMatchObject({ name: 'HarnessConfigError', code: 'HARNESS_ERR_INVALID_CONFIG', field: 'relay' });
    expect(error.message).toContain('@agent-relay/harness-driver');
    expect(error.message).toContain('npm install @agent-relay/harness-driver');
  });
});
