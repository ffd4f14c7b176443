/**
 * @module @agent-assistant/harness/testing/node
 * Loopback fake model servers (Node only) that speak the real wire formats — OpenAI-compatible chat
 * completions, the Anthropic Messages API, the OpenAI Responses API, Gemini and native Ollama, JSON,
 * SSE and NDJSON — for testing providers and turns in CI.
 */
export { createFakeOpenAICompatibleServer } from './create-fake-openai-compatible-server.js';
export { createFakeAnthropicServer } from './create-fake-anthropic-server.js';
export { createFakeOllamaServer } from './create-fake-ollama-server.js';
export { createFakeOpenAIResponsesServer } from './create-fake-openai-responses-server.js';
export { createFakeGeminiServer } from './create-fake-gemini-server.js';
export type {
  FakeErrorReply,
  FakeHangReply,
  FakeHttpReply,
  FakeModelReply,
  FakeModelServer,
  FakeModelServerOptions,
  FakeRecordedRequest,
  FakeServerReply,
  FakeServerScript,
  FakeSseReply,
  FakeToolCallReply,
  FakeUsageReply,
} from './fake-model-server-types.js';
export { createNodeResumeGuardClaimers, type NodeResumeGuardClaimersOptions } from './resume-guard-claimers.js';
