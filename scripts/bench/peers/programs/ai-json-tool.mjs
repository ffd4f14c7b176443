// Worker program: the scripted three-step turn with `ai` generateText and a JSON-Schema tool.
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { ADD_ARGS, ADD_JSON_SCHEMA, ANSWER, PROMPT } from '../scenario.mjs';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const model = {
  specificationVersion: 'v4',
  provider: 'bench',
  modelId: 'scripted',
  supportedUrls: {},
  async doGenerate(options) {
    const done = options.prompt.filter((message) => message.role === 'tool').length;
    if (done < ADD_ARGS.length) {
      const call = { type: 'tool-call', toolCallId: `call_${done + 1}`, toolName: 'add', input: JSON.stringify(ADD_ARGS[done]) };
      return { content: [call], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    }
    return { content: [{ type: 'text', text: ANSWER }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
  },
  doStream() {
    throw new Error('not used');
  },
};
const tools = {
  add: tool({ description: 'Adds two numbers.', inputSchema: jsonSchema(ADD_JSON_SCHEMA), execute: async ({ a, b }) => String(a + b) }),
};

export default {
  async fetch() {
    const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: PROMPT });
    return new Response(result.text);
  },
};
