// Worker program: the scripted three-step turn with `@openai/agents` and a JSON-Schema tool.
import { Agent, Runner, Usage, tool } from '@openai/agents';
import { ADD_ARGS, ADD_JSON_SCHEMA, ANSWER, PROMPT } from '../scenario.mjs';

const model = {
  async getResponse(request) {
    const items = Array.isArray(request.input) ? request.input : [];
    const done = items.filter((item) => item.type === 'function_call_result').length;
    const usage = new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
    if (done < ADD_ARGS.length) {
      const call = { type: 'function_call', callId: `call_${done + 1}`, name: 'add', arguments: JSON.stringify(ADD_ARGS[done]), status: 'completed' };
      return { usage, output: [call] };
    }
    return { usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: ANSWER }] }] };
  },
  getStreamedResponse() {
    throw new Error('not used');
  },
};
const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: ADD_JSON_SCHEMA,
  strict: true,
  execute: async (input) => String(input.a + input.b),
});
const agent = new Agent({ name: 'bench', instructions: 'bench', model, tools: [add] });
const runner = new Runner({ tracingDisabled: true });

export default {
  async fetch() {
    const result = await runner.run(agent, PROMPT);
    return new Response(result.finalOutput);
  },
};
