import { createHarness } from '@agent-assistant/harness';

const harness = createHarness({
  model: {
    async nextStep({ transcript }) {
      const last = transcript.at(-1);
      if (last?.type === 'tool_result') return { type: 'final_answer', text: `Oslo: ${last.result.output}.` };
      return { type: 'tool_request', calls: [{ id: 'call-1', name: 'lookup_weather', input: { city: 'Oslo' } }] };
    },
  },
  tools: {
    listAvailable: () => [{ name: 'lookup_weather', description: 'Current weather for a city' }],
    execute: async (call) => ({ callId: call.id, toolName: call.name, status: 'success', output: 'sunny, 21°C' }),
  },
});
const result = await harness.runTurn({
  assistantId: 'demo', turnId: 'turn-1', instructions: { systemPrompt: 'You are a concise weather assistant.' },
  message: { id: 'm1', text: 'Weather in Oslo?', receivedAt: new Date().toISOString() },
});
console.log(result.outcome, result.assistantMessage?.text); // completed Oslo: sunny, 21°C.
