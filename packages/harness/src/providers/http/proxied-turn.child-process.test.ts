import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../../__fixtures__/run-node-script.js';

const script = fileURLToPath(new URL('../../__fixtures__/proxied-turn.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../../dist/index.js', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

describe('a proxied turn with the pinned undici (docs/providers.md, "Behind a proxy")', () => {
  it('reaches the server only through the ProxyAgent when fetch and dispatcher come from the same undici', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/index.js is missing').toBe(true);
    const { code, stdout, stderr } = await runNodeScript(script, '');
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as { node: string; undici: string; outcome: string; text?: string; proxied: string[]; serverRequests: number };
    expect(report.node).toBe(process.version);
    expect(report.undici).toBe(manifest.devDependencies.undici);
    expect(report).toMatchObject({ outcome: 'completed', text: 'Through the proxy.', serverRequests: 1 });
    expect(report.proxied).toHaveLength(1);
    expect(report.proxied[0]).toMatch(/^(CONNECT 127\.0\.0\.1:\d+|POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions)$/);
  });

  it('admits only undici 7, whose every release runs on each Node the package supports', () => {
    // undici 8 needs Node >= 22.19 and throws on import in Node 20; its dispatchers also fail in the
    // built-in fetch of Node 22 and 24 (`invalid onRequestStart method`).
    expect(manifest.peerDependencies.undici).toBe('^7.0.0');
    expect(manifest.devDependencies.undici).toMatch(/^7\.\d+\.\d+$/);
  });
});
