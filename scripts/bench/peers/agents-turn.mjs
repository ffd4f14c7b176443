// `@openai/agents` Runner.run with a scripted Model and a zod-validated tool, tracing off.
import { Agent, Runner, Usage, tool } from '@openai/agents';
import { z } from 'zod';
import { ADD_ARGS, ANSWER, PROMPT } from './scenario.mjs';

const model = {
  async getResponse(request) {
    const items = Array.isArray(request.input) ? request.input : [];
    const done = items.filter((item) => item.type === 'function_call_result').length;
    const usage = new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    if (done < ADD_ARGS.length) {
      return {
        usage,
        output: [
          { type: 'function_call', callId: `call_${done + 1}`, name: 'add', arguments: JSON.stringify(ADD_ARGS[done]), status: 'completed' },
        ],
      };
    }
    return {
      usage,
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: ANSWER }] }],
    };
  },
  getStreamedResponse() {
    throw new Error('not used');
  },
};
const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => String(a + b),
});
const agent = new Agent({ name: 'bench', instructions: 'bench', model, tools: [add] });
const runner = new Runner({ tracingDisabled: true });

/** One turn; resolves to the answer text. */
export async function runAgentsTurn() {
  const result = await runner.run(agent, PROMPT);
  return result.finalOutput;
}

/** Throws unless a turn runs both tool calls and answers. */
export async function checkAgentsTurn() {
  const result = await runner.run(agent, PROMPT);
  const outputs = result.newItems.filter((item) => item.type === 'tool_call_output_item').map((item) => item.output);
  if (outputs.join() !== '3,6' || result.finalOutput !== ANSWER) throw new Error(`agents turn went wrong: ${outputs.join()}`);
}
