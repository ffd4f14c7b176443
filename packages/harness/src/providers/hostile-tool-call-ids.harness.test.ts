import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { HarnessModelAdapter } from '../core/types/model.js';
import { createFakeToolRegistry, createTurnInput } from '../testing/index.js';
import { createFakeAnthropicServer, createFakeOpenAICompatibleServer, type FakeModelServer } from '../testing/node/index.js';
import { createAnthropicModel } from './anthropic/create-anthropic-model.js';
import { createOpenAICompatibleModel } from './openai-compatible/create-openai-compatible-model.js';

// Issue 9, class 1: a tool call id from a real server response that names something every
// object inherits must not count as "already approved".
const inheritedIds = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Provider = 'openai-compatible' | 'anthropic';

async function modelWithCall(provider: Provider, id: string): Promise<HarnessModelAdapter> {
  const replies = [{ toolCalls: [{ id, name: 'delete_repo', arguments: { repo: 'prod' } }] }];
  const retry = { initialDelayMs: 1, maxDelayMs: 2 };
  if (provider === 'anthropic') {
    server = await createFakeAnthropicServer({ replies });
    return createAnthropicModel({ baseUrl: server.url, apiKey: 'test-key-0123456789', model: 'claude-test', maxTokens: 256, retry });
  }
  server = await createFakeOpenAICompatibleServer({ replies });
  return createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', retry });
}

describe.each(['openai-compatible', 'anthropic'] as const)('%s server responses with inherited tool call ids', (provider) => {
  it.each(inheritedIds)('id %s: the requiresApproval tool waits for approval (JSON and streamed)', async (id) => {
    for (const streaming of [false, true]) {
      const tools = createFakeToolRegistry({ delete_repo: { requiresApproval: true, execute: () => 'deleted' } });
      const harness = createHarness({ model: await modelWithCall(provider, id), tools, continuationSecret: 'hostile-ids-secret-0123456789' });
      let result;
      if (streaming) {
        const stream = harness.streamTurn(createTurnInput());
        for await (const _event of stream) {
          // drain
        }
        result = await stream.result;
      } else {
        result = await harness.runTurn(createTurnInput());
      }
      await server?.close();
      server = undefined;
      expect(result).toMatchObject({ outcome: 'awaiting_approval', stopReason: 'approval_required' });
      expect(result.metadata?.approvalRequests).toEqual([expect.objectContaining({ id })]);
      expect(tools.calls).toEqual([]);
    }
  });
});
