import { describe, expect, it } from 'vitest';
// The harness build sees @agent-assistant/vfs through its built dist; tests use its source directly.
import { createMemoryVfs, type VfsProvider } from '../../../../vfs/src/index.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessToolExecutionContext } from '../../shared/types/tools.js';
import { createWorkspaceToolRegistry } from './create-workspace-tool-registry.js';
import { WORKSPACE_TOOL_NAMES } from './workspace-tool-names.js';
import { DEFAULT_WORKSPACE_TOOL_OPTIONS } from './workspace-tool-options.js';

const vfs = createMemoryVfs({ '/docs/guide.md': 'Install with npm\n', '/config.json': '{"a":1}' });

function context(signal: AbortSignal = new AbortController().signal): HarnessToolExecutionContext {
  return { assistantId: 'assistant', turnId: 'turn', iteration: 1, toolCallIndex: 0, signal };
}

const availability = { assistantId: 'assistant', turnId: 'turn' };

describe('createWorkspaceToolRegistry', () => {
  describe('listAvailable', () => {
    it('lists the four tools in order with object JSON Schemas and integer limits', async () => {
      const tools = await createWorkspaceToolRegistry({ vfs }).listAvailable(availability);
      expect(tools.map((tool) => tool.name)).toEqual([...WORKSPACE_TOOL_NAMES]);
      expect(WORKSPACE_TOOL_NAMES).toEqual(['workspace_search', 'workspace_list', 'workspace_read', 'workspace_read_json']);
      for (const tool of tools) {
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(tool.description).toBeTruthy();
        expect(tool.requiresApproval).toBe(false);
      }
      expect(tools[0]!.inputSchema).toMatchObject({
        required: ['query'],
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100 } },
      });
      expect(tools[1]!.inputSchema).toMatchObject({ required: [], properties: { depth: { type: 'integer', maximum: 3 } } });
      expect(tools[2]!.inputSchema).toMatchObject({ required: ['path'], properties: { offset: { type: 'integer', minimum: 0 } } });
      expect(tools[3]!.inputSchema).toMatchObject({ required: ['path'] });
    });

    it('advertises the configured list depth, search default and read cap', async () => {
      const tools = await createWorkspaceToolRegistry({ vfs, maxListDepth: 7, defaultSearchLimit: 9, maxReadBytes: 1234 }).listAvailable(
        availability,
      );
      expect(tools[1]!.inputSchema).toMatchObject({ properties: { depth: { maximum: 7 } } });
      expect(JSON.stringify(tools[0]!.inputSchema)).toContain('default 9');
      expect(tools[2]!.description).toContain('1234 bytes');
    });

    it('honours allowedToolNames, where an empty list means no tools', async () => {
      const registry = createWorkspaceToolRegistry({ vfs });
      const names = async (allowedToolNames: string[]) =>
        (await registry.listAvailable({ ...availability, allowedToolNames })).map((tool) => tool.name);
      expect(await names(['workspace_read', 'other_tool'])).toEqual(['workspace_read']);
      expect(await names([])).toEqual([]);
    });
  });

  describe('options', () => {
    it('uses the documented defaults', async () => {
      expect(DEFAULT_WORKSPACE_TOOL_OPTIONS).toEqual({ defaultSearchLimit: 20, maxListDepth: 3, maxReadBytes: 51_200 });
      const tools = await createWorkspaceToolRegistry({ vfs }).listAvailable(availability);
      expect(tools[2]!.description).toContain('51200 bytes');
    });

    it.each([
      [{ vfs: undefined }, 'vfs'],
      [{ vfs: {} }, 'vfs.list'],
      [{ vfs: { list: () => [], read: () => null } }, 'vfs.search'],
      [{ vfs, defaultSearchLimit: 0 }, 'defaultSearchLimit'],
      [{ vfs, defaultSearchLimit: 101 }, 'defaultSearchLimit'],
      [{ vfs, defaultSearchLimit: 2.5 }, 'defaultSearchLimit'],
      [{ vfs, maxListDepth: 11 }, 'maxListDepth'],
      [{ vfs, maxListDepth: Number.NaN }, 'maxListDepth'],
      [{ vfs, maxReadBytes: -1 }, 'maxReadBytes'],
      [{ vfs, maxReadBytes: '100' }, 'maxReadBytes'],
      [{ vfs, provider: vfs }, 'provider'],
    ])('refuses %o naming %s', (options, field) => {
      try {
        createWorkspaceToolRegistry(options as never);
        expect.unreachable('options were accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(HarnessConfigError);
        expect((error as HarnessConfigError).field).toBe(field);
      }
    });

    it('refuses a missing options object', () => {
      expect(() => createWorkspaceToolRegistry(undefined as never)).toThrow(HarnessConfigError);
    });
  });

  describe('execute', () => {
    it('answers an unknown tool name with an error result', async () => {
      const result = await createWorkspaceToolRegistry({ vfs }).execute({ id: 'c1', name: 'workspace_write', input: {} }, context());
      expect(result).toMatchObject({ callId: 'c1', toolName: 'workspace_write', status: 'error', error: { code: 'unknown_tool' } });
    });

    it.each([
      ['workspace_read', {}, 'path', '"path" is required'],
      ['workspace_read', { path: '' }, 'path', 'non-empty string'],
      ['workspace_read', { path: 42 }, 'path', 'got 42'],
      ['workspace_read', { path: '/a', offset: -1 }, 'offset', 'from 0'],
      ['workspace_read', { path: '/a', extra: true }, 'extra', 'unknown field "extra"'],
      ['workspace_search', { query: '   ' }, 'query', 'non-empty string'],
      ['workspace_search', { query: 'x', limit: 1.5 }, 'limit', 'whole number'],
      ['workspace_search', { query: 'x', limit: 101 }, 'limit', 'from 1 to 100'],
      ['workspace_search', { query: 'x', limit: '5' }, 'limit', 'got a string'],
      ['workspace_search', { query: 'x'.repeat(501) }, 'query', 'at most 500'],
      ['workspace_list', { depth: 4 }, 'depth', 'from 1 to 3'],
      ['workspace_list', { path: '/docs', limit: 0 }, 'limit', 'from 1 to 200'],
      ['workspace_read', { path: '../etc/passwd' }, 'path', '".."'],
      ['workspace_read_json', { path: '/a\u0000b' }, 'path', 'NUL byte'],
      ['workspace_list', { path: 'C:/Windows' }, 'path', 'drive-letter'],
      ['workspace_read', { path: '..\\x' }, 'path', 'backslash'],
    ])('%s %j is a retryable invalid_input naming %s', async (name, input, field, message) => {
      const result = await createWorkspaceToolRegistry({ vfs }).execute({ id: 'c1', name, input }, context());
      expect(result.status).toBe('error');
      expect(result.error).toMatchObject({ code: 'invalid_input', retryable: true, metadata: { field } });
      expect(result.error!.message).toContain(message);
      expect(result.error!.message).toContain(name);
    });

    it.each([
      ['workspace_list', { path: 'docs/', limit: 0 }, '/docs'],
      ['workspace_list', { depth: 9 }, '/'],
      ['workspace_search', { query: '' }, '/'],
      ['workspace_read', { path: '/a.md', offset: 1.5 }, '/a.md'],
      ['workspace_read', { path: '/a/../b' }, undefined],
      ['workspace_read', { path: 7 }, undefined],
      ['workspace_read_json', {}, undefined],
    ])('%s %j carries sourcePath %s when its path is valid', async (name, input, sourcePath) => {
      const result = await createWorkspaceToolRegistry({ vfs }).execute({ id: 'c1', name, input }, context());
      expect(result.error?.code).toBe('invalid_input');
      expect(result.structuredOutput?.sourcePath).toBe(sourcePath);
    });

    it('accepts integral floats such as 5.0 and null for optional fields', async () => {
      const registry = createWorkspaceToolRegistry({ vfs });
      const search = await registry.execute({ id: 'c1', name: 'workspace_search', input: { query: 'npm', limit: 5.0 } }, context());
      expect(search.status).toBe('success');
      const list = await registry.execute({ id: 'c2', name: 'workspace_list', input: { path: '/', depth: 2.0, limit: null } }, context());
      expect(list.status).toBe('success');
    });

    it('returns cancelled without touching the workspace when the signal already fired', async () => {
      let touched = false;
      const spy: VfsProvider = { ...vfs, read: async (path) => ((touched = true), vfs.read(path)) };
      const controller = new AbortController();
      controller.abort();
      const result = await createWorkspaceToolRegistry({ vfs: spy }).execute(
        { id: 'c1', name: 'workspace_read', input: { path: '/docs/guide.md' } },
        context(controller.signal),
      );
      expect(result).toMatchObject({
        status: 'error',
        error: { code: 'cancelled', retryable: true },
        structuredOutput: { sourcePath: '/docs/guide.md' },
      });
      expect(touched).toBe(false);
    });

    it('stops waiting for a hanging workspace when the signal fires', async () => {
      let started!: () => void;
      const startedPromise = new Promise<void>((resolve) => (started = resolve));
      const hanging: VfsProvider = {
        ...vfs,
        read: () => {
          started();
          return new Promise(() => {});
        },
      };
      const controller = new AbortController();
      const pending = createWorkspaceToolRegistry({ vfs: hanging }).execute(
        { id: 'c1', name: 'workspace_read', input: { path: '/docs/guide.md' } },
        context(controller.signal),
      );
      await startedPromise;
      controller.abort();
      expect(await pending).toMatchObject({
        status: 'error',
        error: { code: 'cancelled' },
        structuredOutput: { sourcePath: '/docs/guide.md' },
      });
    });

    it('turns a provider that throws into a retryable tool_error, never a rejection', async () => {
      const broken: VfsProvider = {
        list: async () => {
          throw new Error('disk on fire');
        },
        read: async () => {
          throw 'a string';
        },
        search: () => {
          throw new TypeError('sync throw');
        },
      };
      const registry = createWorkspaceToolRegistry({ vfs: broken });
      const list = await registry.execute({ id: 'c1', name: 'workspace_list', input: { path: '/docs' } }, context());
      expect(list).toMatchObject({
        status: 'error',
        error: { code: 'tool_error', retryable: true, message: 'workspace_list failed for /docs: disk on fire' },
        structuredOutput: { sourcePath: '/docs' },
      });
      const read = await registry.execute({ id: 'c2', name: 'workspace_read', input: { path: 'x' } }, context());
      expect(read.error).toMatchObject({ code: 'tool_error', message: 'workspace_read failed for /x: a string' });
      const search = await registry.execute({ id: 'c3', name: 'workspace_search', input: { query: 'q' } }, context());
      expect(search.error).toMatchObject({ code: 'tool_error', message: expect.stringContaining('sync throw') });
    });
  });
});
