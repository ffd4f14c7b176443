import { describe, expect, it } from 'vitest';
// The harness build sees @agent-assistant/vfs through its built dist; tests use its source directly.
import { createMemoryVfs, VfsNotFoundError, VfsPathEscapeError, type VfsProvider } from '../../../../vfs/src/index.js';
import type { HarnessToolExecutionContext, HarnessToolResult } from '../../shared/types/tools.js';
import { createWorkspaceToolRegistry } from './create-workspace-tool-registry.js';

const files = {
  '/README.md': '# Demo\nSee /docs for the TODO list.\n',
  '/docs/guide.md': 'Intro\nInstall with npm\nTODO: write the FAQ\n',
  '/docs/api/errors.md': 'Errors\n',
  '/src/todo.ts': 'export const todo = [];\n',
};
const vfs = createMemoryVfs(files, { provider: 'notes' });

function context(): HarnessToolExecutionContext {
  return { assistantId: 'assistant', turnId: 'turn', iteration: 1, toolCallIndex: 0, signal: new AbortController().signal };
}

async function run(name: string, input: Record<string, unknown>, provider: VfsProvider = vfs, options = {}): Promise<HarnessToolResult> {
  return createWorkspaceToolRegistry({ vfs: provider, ...options }).execute({ id: 'call-1', name, input }, context());
}

describe('workspace_search', () => {
  it('returns citable results with sourcePath, line and snippet', async () => {
    const result = await run('workspace_search', { query: 'todo' });
    expect(result).toMatchObject({ callId: 'call-1', toolName: 'workspace_search', status: 'success' });
    expect(result.structuredOutput).toEqual({
      sourcePath: '/',
      query: 'todo',
      results: [
        { sourcePath: '/README.md', type: 'file', line: 2, column: 19, snippet: 'See /docs for the TODO list.', provider: 'notes' },
        { sourcePath: '/docs/guide.md', type: 'file', line: 3, column: 1, snippet: 'TODO: write the FAQ', provider: 'notes' },
        { sourcePath: '/src/todo.ts', type: 'file', provider: 'notes' },
        { sourcePath: '/src/todo.ts', type: 'file', line: 1, column: 14, snippet: 'export const todo = [];', provider: 'notes' },
      ],
      sourcePaths: ['/README.md', '/docs/guide.md', '/src/todo.ts'],
      empty: false,
      truncated: false,
    });
    expect(result.output).toBe(
      [
        '4 matches for "todo" in the workspace:',
        '1. /README.md:2 — See /docs for the TODO list.',
        '2. /docs/guide.md:3 — TODO: write the FAQ',
        '3. /src/todo.ts (file name matches)',
        '4. /src/todo.ts:1 — export const todo = [];',
      ].join('\n'),
    );
  });

  it('reports an empty result explicitly, not as a bare "[]"', async () => {
    const result = await run('workspace_search', { query: 'kubernetes' });
    expect(result.status).toBe('success');
    expect(result.structuredOutput).toEqual({ sourcePath: '/', query: 'kubernetes', results: [], empty: true, truncated: false });
    expect(result.output).toBe('No matches for "kubernetes" in the workspace. The search returned nothing for this query.');
  });

  it('applies limit and defaultSearchLimit, and says when there are more', async () => {
    const limited = await run('workspace_search', { query: 'todo', limit: 2 });
    expect(limited.structuredOutput).toMatchObject({ truncated: true, empty: false });
    expect((limited.structuredOutput!.results as unknown[]).length).toBe(2);
    expect(limited.output).toMatch(/^Showing the first 2 matches for "todo" in the workspace; there are more/);
    const byDefault = await run('workspace_search', { query: 'todo' }, vfs, { defaultSearchLimit: 3 });
    expect((byDefault.structuredOutput!.results as unknown[]).length).toBe(3);
    const exact = await run('workspace_search', { query: 'todo', limit: 4 });
    expect(exact.structuredOutput).toMatchObject({ truncated: false });
  });

  it('passes the provider filter through and names it', async () => {
    const other = await run('workspace_search', { query: 'todo', provider: 'github' });
    expect(other.structuredOutput).toMatchObject({ empty: true });
    expect(other.output).toContain('(provider github)');
    const same = await run('workspace_search', { query: 'todo', provider: 'notes' });
    expect(same.structuredOutput).toMatchObject({ empty: false });
  });

  it('normalises and bounds what a third-party provider returns', async () => {
    const loose: VfsProvider = {
      ...vfs,
      search: async () => [
        { path: 'docs//a.md/', type: 'file', snippet: `  many\n\nspaces ${'x'.repeat(400)}`, score: 0.5, title: 'A' },
        { path: '/b.md', type: 'file', score: Number.NaN },
      ],
    };
    const result = await run('workspace_search', { query: 'x' }, loose);
    const [first, second] = result.structuredOutput!.results as Array<Record<string, unknown>>;
    expect(first).toMatchObject({ sourcePath: '/docs/a.md', score: 0.5, title: 'A' });
    expect((first!.snippet as string).startsWith('many spaces xxx')).toBe(true);
    expect((first!.snippet as string).length).toBe(301);
    expect(second).toEqual({ sourcePath: '/b.md', type: 'file' });
  });

  it('cuts a long result listing to maxReadBytes and marks it truncated', async () => {
    const many = createMemoryVfs(Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`/f${index}.txt`, 'needle'])));
    const result = await run('workspace_search', { query: 'needle', limit: 50 }, many, { maxReadBytes: 300 });
    expect(result.output!.length).toBeLessThanOrEqual(300 + 60);
    expect(result.output).toMatch(/… \d+ more not shown \(output limit\)\.$/);
    expect(result.structuredOutput).toMatchObject({ truncated: true });
  });
});

describe('workspace_list', () => {
  it('lists the root by default, with sourcePath on the result and on every entry', async () => {
    const result = await run('workspace_list', {});
    expect(result.structuredOutput).toEqual({
      sourcePath: '/',
      depth: 1,
      entries: [
        { sourcePath: '/README.md', type: 'file', size: 36, provider: 'notes' },
        { sourcePath: '/docs', type: 'dir', provider: 'notes' },
        { sourcePath: '/src', type: 'dir', provider: 'notes' },
      ],
      empty: false,
      truncated: false,
    });
    expect(result.output).toBe('3 entries under /:\n/README.md (file, 36 bytes)\n/docs/ (directory)\n/src/ (directory)');
  });

  it('normalises the path and descends to the requested depth', async () => {
    const result = await run('workspace_list', { path: 'docs//', depth: 2 });
    expect(result.structuredOutput).toMatchObject({ sourcePath: '/docs', depth: 2 });
    expect((result.structuredOutput!.entries as Array<{ sourcePath: string }>).map((entry) => entry.sourcePath)).toEqual([
      '/docs/api',
      '/docs/api/errors.md',
      '/docs/guide.md',
    ]);
    expect(result.output!.split('\n')[0]).toBe('3 entries under /docs (2 levels deep):');
  });

  it('says when there are more entries than the limit', async () => {
    const result = await run('workspace_list', { path: '/', depth: 3, limit: 2 });
    expect(result.structuredOutput).toMatchObject({ truncated: true });
    expect(result.output).toMatch(/^First 2 entries under \/ \(3 levels deep\); there are more/);
  });

  it('reports an empty directory explicitly', async () => {
    const empty: VfsProvider = { ...vfs, list: async () => [] };
    const result = await run('workspace_list', { path: '/empty' }, empty);
    expect(result).toMatchObject({
      status: 'success',
      output: '/empty is an empty directory: it has no files or directories.',
      structuredOutput: { sourcePath: '/empty', entries: [], empty: true },
    });
  });

  it('maps a missing directory to a retryable not_found and a file to not_a_directory', async () => {
    const missing = await run('workspace_list', { path: '/nope' });
    expect(missing).toMatchObject({
      status: 'error',
      error: { code: 'not_found', retryable: true },
      structuredOutput: { sourcePath: '/nope' },
    });
    expect(missing.error!.message).toContain('workspace_search or workspace_list');
    const file = await run('workspace_list', { path: '/README.md' });
    expect(file).toMatchObject({ error: { code: 'not_a_directory', retryable: true }, structuredOutput: { sourcePath: '/README.md' } });
  });

  it('maps errors a provider throws by their VFS code', async () => {
    const escaping: VfsProvider = {
      ...vfs,
      list: async (path) => {
        throw new VfsPathEscapeError(`${path} leads outside the VFS root through a symbolic link.`);
      },
    };
    expect(await run('workspace_list', { path: '/link' }, escaping)).toMatchObject({
      error: { code: 'path_not_allowed', retryable: true },
      structuredOutput: { sourcePath: '/link' },
    });
    const foreignNotFound: VfsProvider = { ...vfs, list: async () => Promise.reject(Object.assign(new Error('gone'), { code: 'VFS_ERR_NOT_FOUND' })) };
    expect((await run('workspace_list', { path: '/x' }, foreignNotFound)).error?.code).toBe('not_found');
    const thrownNotFound: VfsProvider = { ...vfs, list: async () => Promise.reject(new VfsNotFoundError('gone')) };
    expect((await run('workspace_list', { path: '/x' }, thrownNotFound)).error?.code).toBe('not_found');
  });
});
