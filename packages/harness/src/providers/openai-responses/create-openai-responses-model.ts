import { assembledStreamHandler } from '../internal/assembled-stream-handler.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart, HarnessOutputFormat } from '../../core/types/model.js';
import { assertEndpointAllowed, joinUrl } from '../http/assert-endpoint-allowed.js';
import { optionalFiniteNumber, optionalPositiveInteger, requiredString, resolveHttpProviderOptions } from '../http/http-provider-options.js';
import { createModelSteps } from '../internal/create-model-steps.js';
import { createProviderTransport } from '../internal/create-provider-transport.js';
import type { SseStepHandler } from '../internal/drive-sse-step.js';
import { type OutputContext } from '../internal/transport-failure-output.js';
import { responseMismatchOutput } from '../internal/parse-stream-payload.js';
import { readToolChoice } from '../internal/to-function-tools.js';
import { convertToOpenAIResponsesInput, convertToOpenAIResponsesTools } from './convert-to-openai-responses-input.js';
import { createOpenAIResponsesStreamAssembler } from './internal/assemble-openai-responses-stream.js';
import { mapOpenAIResponsesOutput, readOpenAIResponse } from './internal/map-openai-responses-output.js';
import { openAIResponsesResponseSchema, openAIResponsesStreamEventSchema } from './openai-responses-api-types.js';
import { DEFAULT_OPENAI_RESPONSES_MODEL_OPTIONS, type OpenAIResponsesModelOptions } from './openai-responses-model-options.js';
import { isRecord } from '../../shared/is-record.js';

/** An OpenAI Responses API model adapter: `nextStep` (one JSON call) and `streamStep` (SSE). */
export interface OpenAIResponsesModel extends HarnessModelAdapter {
  /** The configured model id. */
  readonly model: string;
  /** Runs one model step with a single JSON request (retried on transient failures); never rejects for provider faults. */
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput>;
  /** Runs one model step over SSE: `text_delta` and `reasoning_delta` parts as they arrive, then exactly one `output` part. */
  streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart>;
}

const reservedBodyKeys = ['model', 'input', 'instructions', 'tools', 'tool_choice', 'stream', 'store', 'include', 'reasoning', 'max_output_tokens', 'temperature'];
const efforts = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * Creates a `HarnessModelAdapter` for the OpenAI Responses API (`POST /responses`): input items
 * (history as role messages, image and file attachments as `input_image` / `input_file`),
 * `function_call` / `function_call_output` items, tool choice (`tool_choice`), structured output
 * (`text.format` `json_schema`), streaming (`response.output_text.delta`, reasoning summaries as
 * `reasoning_delta` parts, `response.function_call_arguments.delta`, `response.completed`),
 * reasoning items kept in the transcript as `openai-responses` reasoning parts and sent back with
 * the steps they preceded — also after a resume in another process (with `store: false` through
 * `reasoning.encrypted_content`, asked for by default, see `includeEncryptedReasoning`) — output
 * items and stream events of other kinds skipped with a note (`output.notes`), usage with cached input and
 * reasoning tokens, refusals as `refusal` outputs, and `pricing` for cost.
 * @throws HarnessConfigError for an invalid option.
 * @example
 * ```ts
 * const model = createOpenAIResponsesModel({ apiKey: { env: 'OPENAI_API_KEY' }, model: 'gpt-5-mini', reasoningEffort: 'low' });
 * const harness = createHarness({ model, tools });
 * ```
 */
export function createOpenAIResponsesModel(options: OpenAIResponsesModelOptions): OpenAIResponsesModel {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('Options are required.', { field: 'options' });
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
  const chosen = options.includeEncryptedReasoning;
  if (chosen !== undefined && typeof chosen !== 'boolean') {
    throw new HarnessConfigError('includeEncryptedReasoning must be a boolean.', { field: 'includeEncryptedReasoning' });
  }
  // Unset with `store: false`, encrypted reasoning is asked for unless the model is known not to
  // reason; a step the model refuses it for is sent once more without it (see `refusesEncryptedReasoning`).
  const learns = chosen === undefined && !store;
  let encrypted = chosen ?? (!store && !KNOWN_NON_REASONING_MODEL.test(model));
  const extraBody = options.extraBody ?? {};
  if (typeof extraBody !== 'object' || extraBody === null || Array.isArray(extraBody)) {
    throw new HarnessConfigError('extraBody must be an object.', { field: 'extraBody' });
  }
  const reserved = reservedBodyKeys.find((key) => Object.hasOwn(extraBody, key));
  if (reserved !== undefined) throw new HarnessConfigError(`extraBody must not set "${reserved}".`, { field: `extraBody.${reserved}` });
  const transportOptions = resolveHttpProviderOptions(options, baseUrl);
  const transport = createProviderTransport({
    url: joinUrl(baseUrl, '/responses'),
    options: transportOptions,
    authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    label: 'OpenAI',
  });
  const extraText = isRecord(extraBody.text) ? extraBody.text : {};

  const buildBody = (input: HarnessModelInput, stream: boolean): Record<string, unknown> => {
    const prompt = convertToOpenAIResponsesInput(input, { store });
    return {
      ...extraBody,
      model,
      ...prompt,
      ...(input.availableTools.length === 0 ? {} : { tools: convertToOpenAIResponsesTools(input.availableTools), tool_choice: toToolChoice(input) }),
      // The turn's schema wins over an `extraBody.text.format`; other `text` fields (e.g. `verbosity`) stay.
      ...(input.output === undefined ? {} : { text: { ...extraText, format: toTextFormat(input.output) } }),
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
    if (!parsed.success) return responseMismatchOutput('the Responses API format', parsed.error.issues, context);
    return mapOpenAIResponsesOutput(readOpenAIResponse(parsed.data), context);
  };

  const steps = createModelSteps(transport, {
    provider: 'openai',
    model,
    buildBody,
    mapJson,
    streamHandler: eventHandler,
    pricing: transportOptions.pricing,
    maxInputBytes: transportOptions.maxInputBytes,
  });
  /** Whether `output` is the API refusing `include: ['reasoning.encrypted_content']`, which this adapter asked for on its own. */
  const refusedEncrypted = (output: HarnessModelOutput): boolean => {
    if (!learns || !encrypted || !refusesEncryptedReasoning(output)) return false;
    encrypted = false;
    return true;
  };

  return {
    model,
    contextWindow: transportOptions.contextWindow,
    async nextStep(input) {
      const output = await steps.nextStep(input);
      return refusedEncrypted(output) ? withoutEncryptedNote(await steps.nextStep(input)) : output;
    },
    async *streamStep(input) {
      for await (const part of steps.streamStep(input)) {
        // The refusal is an HTTP 400, so it comes before any delta.
        if (part.type === 'output' && refusedEncrypted(part.output)) {
          for await (const again of steps.streamStep(input)) yield again.type === 'output' ? { type: 'output', output: withoutEncryptedNote(again.output) } : again;
          return;
        }
        yield part;
      }
    },
  };
}

/** Models that do not reason and answer HTTP 400 to `include: ['reasoning.encrypted_content']`. */
const KNOWN_NON_REASONING_MODEL = /^(gpt-4|gpt-3\.5|chatgpt-)/i;

/** The API's refusal of encrypted reasoning for a model without reasoning ("Encrypted content is not supported with this model.", `param: "include"`). */
function refusesEncryptedReasoning(output: HarnessModelOutput): boolean {
  if (output.type !== 'invalid' || output.httpStatus !== 400) return false;
  const error = output.metadata?.error;
  const body = isRecord(error) && typeof error.responseBody === 'string' ? error.responseBody : '';
  // Only that refusal: a 400 about replayed encrypted content (e.g. "could not be verified") is another matter.
  return /encrypted content is not supported/i.test(output.reason) || /"param"\s*:\s*"include"/.test(body);
}

function withoutEncryptedNote(output: HarnessModelOutput): HarnessModelOutput {
  const note = "The model refused include: ['reasoning.encrypted_content'] (it keeps no reasoning), so the step was sent again without it; this adapter no longer asks.";
  return { ...output, notes: [...(output.notes ?? []), note] };
}

/** Maps the step's tool choice; `{ name }` must name an offered tool. */
function toToolChoice(input: HarnessModelInput): 'auto' | 'none' | 'required' | { type: 'function'; name: string } {
  const choice = readToolChoice(input.toolChoice, input.availableTools);
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
}

/** The structured-output format; `strict` is not set, as strict mode takes only a subset of JSON Schema. */
function toTextFormat(output: HarnessOutputFormat): Record<string, unknown> {
  return {
    type: 'json_schema',
    name: output.name,
    ...(output.description === undefined ? {} : { description: output.description }),
    schema: output.jsonSchema,
  };
}

function eventHandler(context: OutputContext): SseStepHandler {
  return assembledStreamHandler(context, {
    assembler: createOpenAIResponsesStreamAssembler(),
    schema: openAIResponsesStreamEventSchema,
    names: { item: 'Stream event', format: 'the Responses API format' },
    toOutput: mapOpenAIResponsesOutput,
  });
}
