import type { HarnessModelOutput } from '../core/types/model.js';

/** OpenTelemetry GenAI semantic-convention attribute names the sink writes. */
export const GENAI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentId: 'gen_ai.agent.id',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  errorType: 'error.type',
} as const;

/** This library's own attributes, for what the GenAI conventions have no name for. */
export const HARNESS_ATTRIBUTES = {
  turnId: 'agent_assistant.turn.id',
  iteration: 'agent_assistant.iteration',
  outcome: 'agent_assistant.outcome',
  stopReason: 'agent_assistant.stop_reason',
  resumedFrom: 'agent_assistant.continuation.resumed_from',
  outputType: 'agent_assistant.model.output_type',
  reasoningTokens: 'agent_assistant.usage.reasoning_tokens',
  costUnits: 'agent_assistant.usage.cost_units',
  toolCalls: 'agent_assistant.tool_calls',
  toolStatus: 'agent_assistant.tool.status',
  question: 'agent_assistant.clarification.question',
  approvalIds: 'agent_assistant.approval.request_ids',
  compactionTrigger: 'agent_assistant.compaction.trigger',
  compactionBytesBefore: 'agent_assistant.compaction.bytes_before',
  compactionBytesAfter: 'agent_assistant.compaction.bytes_after',
  compactionSummarized: 'agent_assistant.compaction.summarized',
} as const;

/** `SpanKind` values (from `@opentelemetry/api`, which the sink does not import). */
export const SPAN_KIND = { internal: 0, client: 2 } as const;

/** `SpanStatusCode` values. */
export const SPAN_STATUS = { unset: 0, error: 2 } as const;

const FINISH_REASONS: Record<HarnessModelOutput['type'], string> = {
  final_answer: 'stop',
  tool_request: 'tool_call',
  clarification: 'clarification',
  approval_request: 'approval_request',
  refusal: 'content_filter',
  invalid: 'error',
};

/** The GenAI finish reason of a model step, from the kind of output it produced. */
export function finishReasonOf(outputType: HarnessModelOutput['type']): string {
  return Object.hasOwn(FINISH_REASONS, outputType) ? FINISH_REASONS[outputType] : String(outputType);
}
