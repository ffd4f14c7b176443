// @agent-assistant/harness runTurn with a scripted model and a zod-validated tool.
import { z } from 'zod';
import { ADD_ARGS, ANSWER, PROMPT } from './scenario.mjs';

/** Builds the turn against a loaded copy of the harness (dist, or a bundle of src). */
export function harnessTurn({ createHarness, createToolRegistry, defineTool }) {
  const model = {
    async nextStep(input) {
      let done = 0;
      for (const item of input.transcript) if (item.type === 'tool_result') done += 1;
      if (done < ADD_ARGS.length) return { type: 'tool_request', calls: [{ id: `call_${done + 1}`, name: 'add', input: ADD_ARGS[done] }] };
      return { type: 'final_answer', text: ANSWER };
    },
  };
  const add = defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => String(a + b),
  });
  const harness = createHarness({ model, tools: createToolRegistry([add]) });
  let sequence = 0;
  const turn = () => {
    sequence += 1;
    return {
      assistantId: 'bench',
      turnId: `turn-${sequence}`,
      message: { id: `m-${sequence}`, text: PROMPT, receivedAt: '2026-01-01T00:00:00.000Z' },
      instructions: { systemPrompt: 'bench' },
    };
  };
  return {
    async run() {
      const result = await harness.runTurn(turn());
      return result.assistantMessage?.text;
    },
    async check() {
      const result = await harness.runTurn(turn());
      const outputs = result.transcript.filter((item) => item.type === 'tool_result').map((item) => item.result.output);
      if (result.outcome !== 'completed' || outputs.join() !== '3,6' || result.assistantMessage?.text !== ANSWER) {
        throw new Error(`harness turn went wrong: ${JSON.stringify(result)}`);
      }
    },
  };
}
