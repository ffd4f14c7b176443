import { describe, expect, it } from 'vitest';
// The harness build sees @agent-assistant/vfs through its built dist; tests use its source directly.
import { createMemoryVfs, VfsIsADirectoryError, type VfsProvider } from '../../../../vfs/src/index.js';
import type { HarnessToolExecutionContext, HarnessToolResult } from '../../shared/types/tools.js';
import { createWorkspaceToolRegistry } from './create-workspace-tool-registry.js';

const BIG = `${'a'.repeat(90)}é${'b'.repeat(19)}`; // 111 bytes: 'é' straddles byte 90–91
const files = {
  '/docs/guide.md': { content: 'Install with npm\n', revision: 'r3' },
  '/docs/empty.txt': '',
  '/big.txt': BIG,
  '/assets/logo.png': { content: btoa('\u0089PNG'), encoding: 'base64' as const },
  '/config/app.json': '{\n  "name": "demo",\n  "debug": false\n}\n',
  '/config/bom.json': '\uFEFF{"ok": true}',
  '/config/broken.json': '{\n  "name": "demo",\n  "debug": false,\n}\n',
  '/config/truncated.json': '{"a": [1, 2',
  '/config/empty.json': '',
  '/config/trailing.json': '{"a": 1} extra',
};
const vfs = createMemoryVfs(files);

function context(): HarnessToolExecutionContext {
  return { assistantId: 'assistant', turnId: 'turn', iteration: 1, toolCallIndex: 0, signal: new AbortController().signal };
}

async function run(name: string, input: Record<string, unknown>, provider: VfsProvider = vfs, options = {}): Promise<HarnessToolResult> {
  return createWorkspaceToolRegistry({ vfs: provider, ...options }).execute({ id: 'call-1', name, input }, context());
}

describe('workspace_read', () => {
  it('returns the content with the normalised sourcePath and file facts', async () => {
    const result = await run('workspace_read', { path: 'docs//guide.md' });
    expect(result).toEqual({
      callId: 'call-1',
      toolName: 'workspace_read',
      status: 'success',
      output: 'Install with npm\n',
      structuredOutput: {
        sourcePath: '/docs/guide.md',
        contentType: 'text/markdown',
        revision: 'r3',
        encoding: 'utf-8',
        offset: 0,
        bytes: 17,
        size: 17,
        truncated: false,
        empty: false,
      },
    });
  });

  it('truncates a large file partially: the first bytes, on a character boundary, with size and nextOffset', async () => {
    const result = await run('workspace_read', { path: '/big.txt' }, vfs, { maxReadBytes: 91 });
    expect(result.status).toBe('success');
    expect(result.structuredOutput).toMatchObject({ sourcePath: '/big.txt', offset: 0, bytes: 90, size: 111, truncated: true, nextOffset: 90 });
    expect(result.output).toBe(
      `${'a'.repeat(90)}\n\n[Truncated: bytes 0–90 of 111 of /big.txt. Call workspace_read with offset 90 for the rest.]`,
    );
  });

  it('continues from nextOffset to the end', async () => {
    const result = await run('workspace_read', { path: '/big.txt', offset: 90 }, vfs, { maxReadBytes: 91 });
    expect(result.structuredOutput).toMatchObject({ offset: 90, bytes: 21, size: 111, truncated: false });
    expect(result.structuredOutput).not.toHaveProperty('nextOffset');
    expect(result.output).toBe(`é${'b'.repeat(19)}\n\n[Bytes 90–111 of 111: the end of /big.txt.]`);
  });

  it('moves an offset inside a character forward to the next character', async () => {
    const result = await run('workspace_read', { path: '/big.txt', offset: 91 });
    expect(result.structuredOutput).toMatchObject({ offset: 92, bytes: 19 });
  });

  it('reports the end of the file and an offset past it', async () => {
    const atEnd = await run('workspace_read', { path: '/big.txt', offset: 111 });
    expect(atEnd).toMatchObject({ status: 'success', output: 'No bytes left: offset 111 is the end of /big.txt (111 bytes).' });
    const past = await run('workspace_read', { path: '/big.txt', offset: 500 });
    expect(past.error).toMatchObject({ code: 'invalid_input', retryable: true, metadata: { field: 'offset' } });
  });

  it('says when the provider itself returned only the start of the file', async () => {
    const capped = createMemoryVfs(files, { maxReadBytes: 50 });
    const first = await run('workspace_read', { path: '/big.txt' }, capped);
    expect(first.structuredOutput).toMatchObject({ bytes: 50, size: 111, truncated: true });
    expect(first.structuredOutput).not.toHaveProperty('nextOffset');
    expect(first.output).toContain('the workspace returns only the first 50 of the 111 bytes of /big.txt; the rest cannot be read.');
    const beyond = await run('workspace_read', { path: '/big.txt', offset: 60 }, capped);
    expect(beyond).toMatchObject({
      status: 'error',
      error: { code: 'range_unavailable', retryable: true },
      structuredOutput: { sourcePath: '/big.txt' },
    });
  });

  it('reports an empty file explicitly', async () => {
    const result = await run('workspace_read', { path: '/docs/empty.txt' });
    expect(result).toMatchObject({
      status: 'success',
      output: '/docs/empty.txt is an empty file (0 bytes).',
      structuredOutput: { sourcePath: '/docs/empty.txt', size: 0, empty: true, truncated: false },
    });
  });

  it('describes a binary file instead of dumping base64', async () => {
    const result = await run('workspace_read', { path: '/assets/logo.png' });
    expect(result).toMatchObject({
      status: 'success',
      output: '/assets/logo.png is a binary file (4 bytes, image/png); its content cannot be shown as text.',
      structuredOutput: { sourcePath: '/assets/logo.png', binary: true, size: 4 },
    });
  });

  it('maps not found (retryable) and a directory to structured errors with the sourcePath', async () => {
    const missing = await run('workspace_read', { path: '/docs/missing.md' });
    expect(missing).toEqual({
      callId: 'call-1',
      toolName: 'workspace_read',
      status: 'error',
      error: {
        code: 'not_found',
        retryable: true,
        message: 'Nothing exists at /docs/missing.md in the workspace. Use workspace_search or workspace_list to find the right path.',
      },
      structuredOutput: { sourcePath: '/docs/missing.md' },
    });
    const directory = await run('workspace_read', { path: '/docs' });
    expect(directory).toMatchObject({ error: { code: 'is_a_directory', retryable: true }, structuredOutput: { sourcePath: '/docs' } });
    const thrown: VfsProvider = { ...vfs, read: async () => Promise.reject(new VfsIsADirectoryError('dir')) };
    expect((await run('workspace_read', { path: '/x' }, thrown)).error?.code).toBe('is_a_directory');
  });

  it('treats a provider result without text content as a tool error', async () => {
    const odd: VfsProvider = { ...vfs, read: async () => ({ path: '/x' }) as never };
    expect((await run('workspace_read', { path: '/x' }, odd)).error).toMatchObject({ code: 'tool_error', retryable: true });
  });
});

describe('workspace_read_json', () => {
  it('parses JSON and returns it with the sourcePath', async () => {
    const result = await run('workspace_read_json', { path: 'config/app.json' });
    expect(result).toMatchObject({
      status: 'success',
      output: '{\n  "name": "demo",\n  "debug": false\n}',
      structuredOutput: {
        sourcePath: '/config/app.json',
        contentType: 'application/json',
        json: { name: 'demo', debug: false },
        size: 39,
        truncated: false,
      },
    });
  });

  it('accepts a byte-order mark', async () => {
    expect((await run('workspace_read_json', { path: '/config/bom.json' })).structuredOutput).toMatchObject({ json: { ok: true } });
  });

  it.each([
    ['/config/broken.json', 4, 1, 'expected a double-quoted property name but found "}"'],
    ['/config/truncated.json', 1, 12, 'expected "," or "]" after an array element but found the end of the file'],
    ['/config/empty.json', 1, 1, 'expected a value but found the end of the file'],
    ['/config/trailing.json', 1, 10, 'unexpected "e" after the end of the JSON value'],
  ])('explains where %s fails to parse (line %i, column %i)', async (path, line, column, reason) => {
    const result = await run('workspace_read_json', { path });
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ code: 'invalid_json', retryable: true, metadata: { line, column, reason } });
    expect(result.error!.message).toContain(`${path} is not valid JSON: ${reason} at line ${line}, column ${column}`);
    expect(result.structuredOutput).toMatchObject({ sourcePath: path, line, column });
  });

  it('refuses files larger than maxReadBytes instead of parsing a fragment', async () => {
    const result = await run('workspace_read_json', { path: '/config/app.json' }, vfs, { maxReadBytes: 10 });
    expect(result).toMatchObject({
      status: 'error',
      error: { code: 'too_large', retryable: true, metadata: { size: 39, maxReadBytes: 10 } },
      structuredOutput: { sourcePath: '/config/app.json' },
    });
    const capped = createMemoryVfs(files, { maxReadBytes: 5 });
    expect((await run('workspace_read_json', { path: '/config/app.json' }, capped)).error?.code).toBe('too_large');
  });

  it('refuses binary files and reports not found', async () => {
    expect((await run('workspace_read_json', { path: '/assets/logo.png' })).error).toMatchObject({ code: 'invalid_json', retryable: true });
    expect((await run('workspace_read_json', { path: '/nope.json' })).error).toMatchObject({ code: 'not_found', retryable: true });
  });

  it('falls back to compact JSON, then to a truncated output, for wide values', async () => {
    const wide = createMemoryVfs({ '/wide.json': JSON.stringify({ list: Array.from({ length: 30 }, (_, index) => index) }) });
    const compact = await run('workspace_read_json', { path: '/wide.json' }, wide, { maxReadBytes: 120 });
    expect(compact.output).toBe(JSON.stringify({ list: Array.from({ length: 30 }, (_, index) => index) }));
    // 1e9 is 3 characters in the file but 10 once printed, so even compact output exceeds the cap.
    const growing = createMemoryVfs({ '/n.json': `[${Array.from({ length: 20 }, () => '1e9').join(',')}]` });
    const cut = await run('workspace_read_json', { path: '/n.json' }, growing, { maxReadBytes: 100 });
    expect(cut.status).toBe('success');
    expect(cut.structuredOutput).toMatchObject({ truncated: true, size: 81 });
    expect((cut.structuredOutput!.json as number[]).length).toBe(20);
    expect(cut.output).toMatch(/^\[1000000000,1000000000,/);
    expect(cut.output).toContain('[Output truncated at 100 of 221 bytes; structuredOutput.json holds the whole value.]');
  });
});
