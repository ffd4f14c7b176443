import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(fileURLToPath(new URL(path, root)), 'utf8');

describe('README quick start', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is the type-checked example file, verbatim', () => {
    expect(read('README.md')).toContain(read('examples/quickstart/readme-snippet.ts'));
  });

  it('runs and completes', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const snippet = fileURLToPath(new URL('examples/quickstart/readme-snippet.ts', root));
    await import(/* @vite-ignore */ snippet);
    expect(log).toHaveBeenCalledWith('completed', 'Oslo: sunny, 21°C.');
  });
});
