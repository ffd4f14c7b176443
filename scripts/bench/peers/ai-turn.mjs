// `ai` (Vercel AI SDK) generateText with a scripted LanguageModelV4 and a zod-validated tool.
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { ADD_ARGS, ANSWER, PROMPT } from './scenario.mjs';

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
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${done + 1}`, toolName: 'add', input: JSON.stringify(ADD_ARGS[done]) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    }
    return { content: [{ type: 'text', text: ANSWER }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
  },
  doStream() {
    throw new Error('not used');
  },
};
const tools = {
  add: tool({
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => String(a + b),
  }),
};

/** One turn; resolves to the answer text. */
export async function runAiTurn() {
  const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: PROMPT });
  return result.text;
}

/** Throws unless a turn runs three steps and both tool calls. */
export async function checkAiTurn() {
  const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: PROMPT });
  const toolResults = result.steps.flatMap((step) => step.toolResults.map((item) => item.output));
  if (result.steps.length !== 3 || toolResults.join() !== '3,6' || result.text !== ANSWER) throw new Error('ai turn went wrong');
}
