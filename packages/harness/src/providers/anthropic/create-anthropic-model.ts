import { assembledStreamHandler } from '../internal/assembled-stream-handler.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import { assertEndpointAllowed, joinUrl } from '../http/assert-endpoint-allowed.js';
import { optionalFiniteNumber, optionalPositiveInteger, requiredString, resolveHttpProviderOptions } from '../http/http-provider-options.js';
import { createModelSteps } from '../internal/create-model-steps.js';
import { createProviderTransport } from '../internal/create-provider-transport.js';
import type { SseStepHandler } from '../internal/drive-sse-step.js';
import { type OutputContext } from '../internal/transport-failure-output.js';
import { responseMismatchOutput } from '../internal/parse-stream-payload.js';
import { anthropicMessageSchema, anthropicStreamEventSchema } from './anthropic-api-types.js';
import { DEFAULT_ANTHROPIC_MODEL_OPTIONS, type AnthropicModelOptions } from './anthropic-model-options.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
import { createAnthropicStreamAssembler } from './internal/assemble-anthropic-stream.js';
import { buildAnthropicTooling, isAnthropicThinkingEnabled, readAnthropicAnswerTool } from './internal/build-anthropic-tooling.js';
import { mapAnthropicMessageToOutput, readAnthropicMessage } from './internal/map-anthropic-message-to-output.js';

/** A Messages API model adapter: `nextStep` (one JSON call) and `streamStep` (SSE). */
export interface AnthropicModel extends HarnessModelAdapter {
  /** The configured model id. */
  readonly model: string;
  /** Runs one model step with a single JSON request (retried on transient failures); never rejects for provider faults. */
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput>;
  /** Runs one model step over SSE: `text_delta` (and `reasoning_delta`) parts as they arrive, then exactly one `output` part. */
  streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart>;
}

const reservedBodyKeys = ['model', 'messages', 'system', 'tools', 'tool_choice', 'max_tokens', 'stream'];

/**
 * Creates a `HarnessModelAdapter` for the Anthropic Messages API: `tool_use` / `tool_result` blocks,
 * the system prompt, history as user/assistant messages, attachments as `image` / `document`
 * blocks, structured output through a forced answer tool, tool choice, thinking blocks kept as
 * `reasoning` (streamed as `reasoning_delta`) and replayed unchanged in tool loops, streaming
 * (`message_start`, `content_block_*`, `message_delta`), usage (cache reads and writes count as
 * input), `stop_reason` mapping, and `stop_reason: "refusal"` → a `refusal` output. Retries
 * 408/409/425/429/5xx/529 with backoff and `Retry-After`.
 * @throws HarnessConfigError for an invalid option.
 * @example
 * ```ts
 * const model = createAnthropicModel({ apiKey: { env: 'ANTHROPIC_API_KEY' }, model: 'claude-sonnet-4-5', maxTokens: 1024 });
 * ```
 */
export function createAnthropicModel(options: AnthropicModelOptions): AnthropicModel {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('Options are required.', { field: 'options' });
  const baseUrl = assertEndpointAllowed(options.baseUrl ?? DEFAULT_ANTHROPIC_MODEL_OPTIONS.baseUrl, 'baseUrl', {
    allowInsecureHttp: options.allowInsecureHttp,
  });
  const model = requiredString(options.model, 'model');
  const maxTokens = optionalPositiveInteger(options.maxTokens, 'maxTokens');
  if (maxTokens === undefined) throw new HarnessConfigError('maxTokens is required (a positive whole number).', { field: 'maxTokens' });
  const temperature = optionalFiniteNumber(options.temperature, 'temperature');
  const version = requiredString(options.anthropicVersion ?? DEFAULT_ANTHROPIC_MODEL_OPTIONS.anthropicVersion, 'anthropicVersion');
  const extraBody = options.extraBody ?? {};
  if (typeof extraBody !== 'object' || extraBody === null || Array.isArray(extraBody)) {
    throw new HarnessConfigError('extraBody must be an object.', { field: 'extraBody' });
  }
  const reserved = reservedBodyKeys.find((key) => key in extraBody);
  if (reserved !== undefined) throw new HarnessConfigError(`extraBody must not set "${reserved}".`, { field: `extraBody.${reserved}` });
  const transportOptions = resolveHttpProviderOptions(options, baseUrl);
  const transport = createProviderTransport({
    url: joinUrl(baseUrl, '/messages'),
    options: transportOptions,
    authHeaders: (apiKey) => ({ 'x-api-key': apiKey }),
    fixedHeaders: { 'anthropic-version': version },
    label: 'Anthropic',
  });

  const thinking = isAnthropicThinkingEnabled(extraBody.thinking);
  const buildBody = (input: HarnessModelInput, stream: boolean): Record<string, unknown> => {
    const prompt = convertToAnthropicMessages(input);
    const { systemNote, ...tooling } = buildAnthropicTooling(input, thinking);
    const system = [prompt.system, systemNote].filter((part) => part !== undefined).join('\n\n');
    return {
      ...extraBody,
      model,
      max_tokens: maxTokens,
      ...(system === '' ? {} : { system }),
      messages: prompt.messages,
      ...tooling,
      ...(temperature === undefined ? {} : { temperature }),
      ...(stream ? { stream: true } : {}),
    };
  };
  const mapJson = (value: unknown, context: OutputContext): HarnessModelOutput => {
    const parsed = anthropicMessageSchema.safeParse(value);
    if (!parsed.success) return responseMismatchOutput('the Messages API format', parsed.error.issues, context);
    return mapAnthropicMessageToOutput(readAnthropicMessage(parsed.data), context);
  };

  const steps = createModelSteps(transport, {
    provider: 'anthropic',
    model,
    buildBody,
    mapJson,
    streamHandler: eventHandler,
    pricing: transportOptions.pricing,
    maxInputBytes: transportOptions.maxInputBytes,
  });
  return {
    model,
    contextWindow: transportOptions.contextWindow,
    async nextStep(input) {
      return readAnthropicAnswerTool(await steps.nextStep(input), input.output?.name);
    },
    async *streamStep(input) {
      for await (const part of steps.streamStep(input)) {
        yield part.type === 'output' ? { type: 'output', output: readAnthropicAnswerTool(part.output, input.output?.name) } : part;
      }
    },
  };
}

function eventHandler(context: OutputContext): SseStepHandler {
  return assembledStreamHandler(context, {
    assembler: createAnthropicStreamAssembler(),
    schema: anthropicStreamEventSchema,
    names: { item: 'Stream event', format: 'the Messages API format' },
    toOutput: mapAnthropicMessageToOutput,
  });
}
