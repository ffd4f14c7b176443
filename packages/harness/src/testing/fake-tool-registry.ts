import type {
  HarnessToolCall,
  HarnessToolDefinition,
  HarnessToolExecutionContext,
  HarnessToolRegistry,
  HarnessToolResult,
} from '../shared/types/tools.js';

/** What a fake tool handler may return: text, a structured object, or a full result. */
export type FakeToolOutput = string | Record<string, unknown> | Omit<HarnessToolResult, 'callId' | 'toolName'>;

/** A fake tool: a handler, or a definition with one. */
export type FakeTool =
  | ((input: Record<string, unknown>, context: HarnessToolExecutionContext) => FakeToolOutput | Promise<FakeToolOutput>)
  | (Omit<HarnessToolDefinition, 'name'> & {
      execute(input: Record<string, unknown>, context: HarnessToolExecutionContext): FakeToolOutput | Promise<FakeToolOutput>;
    });

/** A tool registry for tests that records every call. */
export interface FakeToolRegistry extends HarnessToolRegistry {
  /** Every executed call, in start order. */
  readonly calls: HarnessToolCall[];
  /** Executed calls of one tool. */
  callsOf(name: string): HarnessToolCall[];
}

/**
 * Creates a registry from handlers. A handler's string becomes `output`, an object becomes
 * `structuredOutput`, and an object with `status` is taken as the result itself. A handler that
 * throws reaches the harness as a thrown registry error.
 * @example
 * ```ts
 * const tools = createFakeToolRegistry({ lookup_weather: ({ city }) => `Sunny in ${city}` });
 * ```
 */
export function createFakeToolRegistry(tools: Record<string, FakeTool>): FakeToolRegistry {
  const calls: HarnessToolCall[] = [];
  const definitions: HarnessToolDefinition[] = Object.entries(tools).map(([name, tool]) => {
    if (typeof tool === 'function') return { name, description: `Fake tool ${name}`, inputSchema: { type: 'object' } };
    const { execute: _execute, ...definition } = tool;
    return { description: `Fake tool ${name}`, inputSchema: { type: 'object' }, ...definition, name };
  });
  return {
    calls,
    callsOf: (name) => calls.filter((call) => call.name === name),
    listAvailable: () => definitions,
    async execute(call, context) {
      calls.push(call);
      // Own keys only: a call named `constructor` or `toString` is not a fake tool.
      const tool = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
      if (tool === undefined) {
        return { callId: call.id, toolName: call.name, status: 'error', error: { code: 'unknown_tool', message: `No fake tool ${call.name}` } };
      }
      const output = await (typeof tool === 'function' ? tool(call.input, context) : tool.execute(call.input, context));
      return toResult(call, output);
    },
  };
}

function toResult(call: HarnessToolCall, output: FakeToolOutput): HarnessToolResult {
  if (typeof output === 'string') return { callId: call.id, toolName: call.name, status: 'success', output };
  if ('status' in output && (output.status === 'success' || output.status === 'error')) {
    return { ...(output as Omit<HarnessToolResult, 'callId' | 'toolName'>), callId: call.id, toolName: call.name };
  }
  return { callId: call.id, toolName: call.name, status: 'success', structuredOutput: output as Record<string, unknown> };
}
