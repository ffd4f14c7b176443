import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { assertEndpointAllowed, joinUrl } from '../http/assert-endpoint-allowed.js';
import { optionalFiniteNumber, optionalPositiveInteger, requiredString, resolveHttpProviderOptions } from '../http/http-provider-options.js';
import { createModelSteps } from '../internal/create-model-steps.js';
import { createProviderTransport } from '../internal/create-provider-transport.js';
import type { SseStepHandler } from '../internal/drive-sse-step.js';
import { createToolStepMemory, type ToolStepMemory } from '../internal/tool-step-memory.js';
import { invalidOutput, type OutputContext } from '../internal/transport-failure-output.js';
import { convertToOpenAIResponsesInput, convertToOpenAIResponsesTools, type OpenAIResponsesStepState } from './convert-to-openai-responses-input.js';
import { createOpenAIResponsesStreamAssembler } from './internal/assemble-openai-responses-stream.js';
import { mapOpenAIResponsesOutput, readOpenAIResponse, type AssembledOpenAIResponse } from './internal/map-openai-responses-output.js';
import { openAIResponsesResponseSchema, openAIResponsesStreamEventSchema } from './openai-responses-api-types.js';
import { DEFAULT_OPENAI_RESPONSES_MODEL_OPTIONS, type OpenAIResponsesModelOptions } from './openai-responses-model-options.js';
import { parseStreamPayload } from '../internal/parse-stream-payload.js';

/** An OpenAI Responses API model adapter: `nextStep` (one JSON call) and `streamStep` (SSE). */
export interface OpenAIResponsesModel extends HarnessModelAdapter {
  /** The configured model id. */
  readonly model: string;
  /** Runs one model step with a single JSON request (retried on transient failures); never rejects for provider faults. */
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput>;
  /** Runs one model step over SSE: `text_delta` parts as text arrives, then exactly one `output` part. */
  streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart>;
}

const reservedBodyKeys = ['model', 'input', 'instructions', 'tools', 'tool_choice', 'stream', 'store', 'include', 'reasoning', 'max_output_tokens', 'temperature'];
const efforts = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * Creates a `HarnessModelAdapter` for the OpenAI Responses API (`POST /responses`): input items,
 * `function_call` / `function_call_output` items, streaming (`response.output_text.delta`,
 * `response.function_call_arguments.delta`, `response.completed`), reasoning items carried across
 * the tool steps of a turn (with `store: false` through `reasoning.encrypted_content`, see
 * `includeEncryptedReasoning`), usage with
 * cached input and reasoning tokens, refusals as `refusal` outputs, and `pricing` for cost.
 * Reasoning items are kept in this adapter instance (bounded); a step replayed in another process
 * after a resume is sent without them.
 * @throws HarnessConfigError for an invalid option.
 * @example
 * ```ts
 * const model = createOpenAIResponsesModel({ apiKey: { env: 'OPENAI_API_KEY' }, model: 'gpt-5-mini', reasoningEffort: 'low' });
 * const harness = createHarness({ model, tools });
 * ```
 */
export function createOpenAIResponsesModel(options: OpenAIResponsesModelOptions): OpenAIResponsesModel {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('Options are required.', { field: 'options' });
  if (options.apiKey === undefined && options.baseUrl === undefined) {
    throw new HarnessConfigError("apiKey is required for api.openai.com (a string or { env: 'OPENAI_API_KEY' }).", { field: 'apiKey' });
  }
  const baseUrl = assertEndpointAllowed(options.baseUrl ?? DEFAULT_OPENAI_RESPONSES_MODEL_OPTIONS.baseUrl, 'baseUrl', {
    allowInsecureHttp: options.allowInsecureHttp,
  });
  const model = requiredString(options.model, 'model');
  const temperature = optionalFiniteNumber(options.temperature, 'temperature');
  const maxTokens = optionalPositiveInteger(options.maxTokens, 'maxTokens');
  const effort = options.reasoningEffort;
  if (effort !== undefined && !efforts.has(effort)) {
    throw new HarnessConfigError("reasoningEffort must be 'minimal', 'low', 'medium' or 'high'.", { field: 'reasoningEffort' });
  }
  const store = options.store ?? DEFAULT_OPENAI_RESPONSES_MODEL_OPTIONS.store;
  if (typeof store !== 'boolean') throw new HarnessConfigError('store must be a boolean.', { field: 'store' });
  const encrypted = options.includeEncryptedReasoning ?? (!store && effort !== undefined);
  if (typeof encrypted !== 'boolean') throw new HarnessConfigError('includeEncryptedReasoning must be a boolean.', { field: 'includeEncryptedReasoning' });
  const extraBody = options.extraBody ?? {};
  if (typeof extraBody !== 'object' || extraBody === null || Array.isArray(extraBody)) {
    throw new HarnessConfigError('extraBody must be an object.', { field: 'extraBody' });
  }
  const reserved = reservedBodyKeys.find((key) => Object.hasOwn(extraBody, key));
  if (reserved !== undefined) throw new HarnessConfigError(`extraBody must not set "${reserved}".`, { field: `extraBody.${reserved}` });
  const transportOptions = resolveHttpProviderOptions(options);
  const transport = createProviderTransport({
    url: joinUrl(baseUrl, '/responses'),
    options: transportOptions,
    requireApiKey: transportOptions.apiKey !== undefined,
    authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    label: 'OpenAI',
  });
  const memory = createToolStepMemory<OpenAIResponsesStepState>({ weigh: (state) => JSON.stringify(state.reasoning).length });
  // Without `store`, a reasoning item can only be sent back with its encrypted content.
  const replayable = (state: OpenAIResponsesStepState) => store || state.reasoning.every((item) => item.encrypted_content !== undefined);

  const buildBody = (input: HarnessModelInput, stream: boolean): Record<string, unknown> => {
    const prompt = convertToOpenAIResponsesInput(input, { recallStep: (calls) => memory.recall(calls) });
    return {
      ...extraBody,
      model,
      ...prompt,
      ...(input.availableTools.length === 0 ? {} : { tools: convertToOpenAIResponsesTools(input.availableTools), tool_choice: 'auto' }),
      store,
      ...(encrypted ? { include: ['reasoning.encrypted_content'] } : {}),
      ...(effort === undefined ? {} : { reasoning: { effort } }),
      ...(maxTokens === undefined ? {} : { max_output_tokens: maxTokens }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(stream ? { stream: true } : {}),
    };
  };

  const mapJson = (value: unknown, context: OutputContext): HarnessModelOutput => {
    const parsed = openAIResponsesResponseSchema.safeParse(value);
    if (!parsed.success) {
      return invalidOutput('provider_error', `The response does not match the Responses API format: ${formatIssues(parsed.error.issues)}.`, context, {
        retryable: true,
      });
    }
    return mapAndRemember(readOpenAIResponse(parsed.data), context, memory, replayable);
  };

  return {
    model,
    ...createModelSteps(transport, {
      provider: 'openai',
      model,
      buildBody,
      mapJson,
      streamHandler: (context) => eventHandler(context, memory, replayable),
      pricing: transportOptions.pricing,
      maxInputBytes: transportOptions.maxInputBytes,
    }),
  };
}

type Replayable = (state: OpenAIResponsesStepState) => boolean;

function mapAndRemember(response: AssembledOpenAIResponse, context: OutputContext, memory: ToolStepMemory<OpenAIResponsesStepState>, replayable: Replayable): HarnessModelOutput {
  const mapped = mapOpenAIResponsesOutput(response, context);
  if (mapped.step !== undefined && replayable(mapped.step.state)) memory.remember(mapped.step.calls, mapped.step.state);
  return mapped.output;
}

function eventHandler(context: OutputContext, memory: ToolStepMemory<OpenAIResponsesStepState>, replayable: Replayable): SseStepHandler {
  const assembler = createOpenAIResponsesStreamAssembler();
  return {
    onEvent(event) {
      const parsed = parseStreamPayload(event.data, openAIResponsesStreamEventSchema, context, { item: 'A stream event', format: 'the Responses API format' });
      if (!parsed.ok) return { output: parsed.output };
      const text = assembler.push(parsed.value);
      const end = assembler.isComplete() || assembler.hasError();
      return text === undefined && !end ? undefined : { ...(text === undefined ? {} : { text }), ...(end ? { end } : {}) };
    },
    finish() {
      if (!assembler.isComplete() && !assembler.hasError()) {
        return invalidOutput('transient', 'The stream ended before it was complete.', context, { retryable: true });
      }
      return mapAndRemember(assembler.result(), context, memory, replayable);
    },
  };
}
