// Worker program: the scripted three-step turn with a JSON-Schema tool (no zod in the program).
import { createHarness, createToolRegistry, defineTool } from '@agent-assistant/harness';
import { ADD_ARGS, ADD_JSON_SCHEMA, ANSWER, PROMPT } from '../scenario.mjs';

const harness = createHarness({
  model: {
    async nextStep(input) {
      const done = input.transcript.filter((item) => item.type === 'tool_result').length;
      if (done < ADD_ARGS.length) return { type: 'tool_request', calls: [{ id: `call_${done + 1}`, name: 'add', input: ADD_ARGS[done] }] };
      return { type: 'final_answer', text: ANSWER };
    },
  },
  tools: createToolRegistry([
    defineTool({ name: 'add', description: 'Adds two numbers.', input: { jsonSchema: ADD_JSON_SCHEMA }, execute: ({ a, b }) => String(a + b) }),
  ]),
});

export default {
  async fetch() {
    const result = await harness.runTurn({
      assistantId: 'bench',
      turnId: crypto.randomUUID(),
      message: { id: 'm', text: PROMPT, receivedAt: new Date().toISOString() },
      instructions: { systemPrompt: 'bench' },
    });
    return new Response(result.assistantMessage?.text ?? result.stopReason);
  },
};
