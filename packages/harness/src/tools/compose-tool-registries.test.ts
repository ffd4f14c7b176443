import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import type { HarnessToolExecutionContext } from '../shared/types/tools.js';
import { createFakeToolRegistry } from '../testing/fake-tool-registry.js';
import { composeToolRegistries } from './compose-tool-registries.js';
import { createToolRegistry } from './create-tool-registry.js';
import { defineTool } from './define-tool.js';

const input = z.object({ text: z.string() });
const echo = defineTool({ name: 'echo', description: 'Echo.', input, execute: ({ text }) => `echo:${text}` });
const shout = defineTool({ name: 'shout', description: 'Shout.', input, execute: ({ text }) => text.toUpperCase() });
const availability = { assistantId: 'a', turnId: 't' };
const context: HarnessToolExecutionContext = {
  ...availability,
  iteration: 1,
  toolCallIndex: 0,
  signal: new AbortController().signal,
};

describe('createToolRegistry', () => {
  it('lists tools in order and filters by allowedToolNames', async () => {
    const registry = createToolRegistry([echo, shout]);
    expect(registry.toolNames).toEqual(['echo', 'shout']);
    expect((await registry.listAvailable(availability)).map((tool) => tool.name)).toEqual(['echo', 'shout']);
    expect((await registry.listAvailable({ ...availability, allowedToolNames: ['shout'] })).map((tool) => tool.name)).toEqual([
      'shout',
    ]);
  });

  it('refuses duplicate names and foreign objects', () => {
    expect(() => createToolRegistry([echo, echo])).toThrow(expect.objectContaining({ field: 'tools[1].name' }));
    expect(() => createToolRegistry([{ name: 'x' } as never])).toThrow(HarnessConfigError);
  });

  it('answers an unknown tool with a retryable tool_unavailable error', async () => {
    const result = await createToolRegistry([echo]).execute({ id: 'c', name: 'nope', input: {} }, context);
    expect(result.error).toMatchObject({ code: 'tool_unavailable', retryable: true });
    expect(result.error?.message).toContain('Available tools: echo');
  });
});

describe('composeToolRegistries', () => {
  it('merges registries and routes each call to its owner', async () => {
    const legacy = createFakeToolRegistry({ legacy_lookup: ({ id }) => `legacy ${String(id)}` });
    const tools = composeToolRegistries(createToolRegistry([echo]), createToolRegistry([shout]), legacy);
    expect(tools.toolNames).toBeUndefined();
    expect((await tools.listAvailable(availability)).map((tool) => tool.name)).toEqual(['echo', 'shout', 'legacy_lookup']);
    expect((await tools.execute({ id: 'c1', name: 'shout', input: { text: 'hi' } }, context)).output).toBe('HI');
    expect((await tools.execute({ id: 'c2', name: 'legacy_lookup', input: { id: 7 } }, context)).output).toBe('legacy 7');
    expect(legacy.calls.map((call) => call.id)).toEqual(['c2']);
    const unknown = await tools.execute({ id: 'c3', name: 'missing', input: {} }, context);
    expect(unknown.error).toMatchObject({ code: 'tool_unavailable', retryable: true });
  });

  it('exposes toolNames when every part declares them, so compositions nest', () => {
    const inner = composeToolRegistries(createToolRegistry([echo]));
    expect(inner.toolNames).toEqual(['echo']);
    expect(() => composeToolRegistries(inner, createToolRegistry([echo]))).toThrow(
      expect.objectContaining({
        field: 'registries[1]',
        message: expect.stringContaining('"echo" is offered by registries[0] and registries[1]'),
      })
    );
  });

  it('reports a clash with a dynamic registry when tools are listed', async () => {
    const dynamic = createFakeToolRegistry({ echo: () => 'other echo' });
    const tools = composeToolRegistries(createToolRegistry([echo]), dynamic);
    await expect(tools.listAvailable(availability)).rejects.toThrow(
      expect.objectContaining({
        name: 'HarnessConfigError',
        message: expect.stringContaining('"echo" is offered by registries[0] and registries[1]'),
      })
    );
  });

  it('refuses arguments that are not registries', () => {
    expect(() => composeToolRegistries(createToolRegistry([echo]), {} as never)).toThrow(
      expect.objectContaining({ field: 'registries[1]' })
    );
  });
});
