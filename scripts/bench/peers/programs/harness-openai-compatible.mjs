// Worker program: createHarness with createOpenAICompatibleModel, no tools.
import { createHarness, createOpenAICompatibleModel } from '@agent-assistant/harness';

export default {
  async fetch(request, env) {
    const harness = createHarness({
      model: createOpenAICompatibleModel({ baseUrl: env.BASE_URL, model: env.MODEL, apiKey: env.API_KEY }),
    });
    const result = await harness.runTurn({
      assistantId: 'bench',
      turnId: crypto.randomUUID(),
      message: { id: 'm', text: await request.text(), receivedAt: new Date().toISOString() },
      instructions: { systemPrompt: 'bench' },
    });
    return new Response(result.assistantMessage?.text ?? result.stopReason);
  },
};
