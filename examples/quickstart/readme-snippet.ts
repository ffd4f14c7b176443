import { createHarness } from '@agent-assistant/harness';

const harness = createHarness({
  model: {
    async nextStep(input) {
      const weather = input.transcript.find((item) => item.type === 'tool_result');
      if (weather?.type === 'tool_result') {
        return { type: 'final_answer', text: `In Oslo it is ${weather.result.output}.` };
      }
      return { type: 'tool_request', calls: [{ id: 'call-1', name: 'lookup_weather', input: { city: 'Oslo' } }] };
    },
  },
  tools: {
    listAvailable: () => [{ name: 'lookup_weather', description: 'Current weather for a city' }],
    execute: async (call) => ({ callId: call.id, toolName: call.name, status: 'success', output: 'sunny, 21°C' }),
  },
});

const result = await harness.runTurn({
  assistantId: 'demo',
  turnId: 'turn-1',
  message: { id: 'm1', text: 'Weather in Oslo?', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a concise weather assistant.' },
});
console.log(result.outcome, result.assistantMessage?.text); // completed In Oslo it is sunny, 21°C.
