import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { checkExecutionRequest } from '../../execution/execution-request-schema.js';
import { negotiateCapabilities } from '../../execution/negotiate-capabilities.js';
import type {
  ExecutionAdapter,
  ExecutionCapabilities,
  ExecutionNegotiation,
  ExecutionNegotiationReason,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
} from '../../execution/types.js';
import { assertEndpointAllowed, joinUrl } from '../http/assert-endpoint-allowed.js';
import { httpErrorToExecutionError } from '../http/http-error-to-execution-error.js';
import { optionalFiniteNumber, optionalPositiveInteger, requiredString, resolveHttpProviderOptions } from '../http/http-provider-options.js';
import { linkAbortSignal } from '../http/link-abort-signal.js';
import { createProviderTransport, type ProviderTransport } from '../internal/create-provider-transport.js';
import { UnsupportedInputError } from '../internal/unsupported-input-error.js';
import { convertToOpenAICompatibleMessages } from '../openai-compatible/convert-to-openai-compatible-messages.js';
import { openAICompatibleResponseSchema } from '../openai-compatible/openai-compatible-api-types.js';
import { readOpenAICompatibleResponse } from '../openai-compatible/read-openai-compatible-response.js';
import {
  failedResult,
  messageResult,
  OPENROUTER_BACKEND_ID,
  unsupportedResult,
  type ExecutionContext,
} from './internal/openrouter-execution-results.js';
import { DEFAULT_OPENROUTER_OPTIONS, openRouterAttributionHeaders, type OpenRouterBaseOptions } from './openrouter-options.js';
import { defineExecutionAdapter } from '../../core/define-execution-adapter.js';

/** Options of `OpenRouterExecutionAdapter` / `createOpenRouterAdapter`. */
export type OpenRouterExecutionAdapterOptions = OpenRouterBaseOptions;

/** What the OpenRouter backend can do: one hosted call, no tools, no resume, no approvals. */
export const OPENROUTER_EXECUTION_CAPABILITIES: Readonly<ExecutionCapabilities> = /* @__PURE__ */ Object.freeze({
  toolUse: 'none',
  structuredToolCalls: false,
  continuationSupport: 'none',
  approvalInterrupts: 'none',
  traceDepth: 'minimal',
  attachments: false,
  history: true,
  maxContextStrategy: 'large',
  notes: /* @__PURE__ */ Object.freeze(['One hosted chat-completions call per turn.', 'No tools, no continuation, no approvals.']) as string[],
});

/**
 * An `ExecutionAdapter` (backend id `openrouter-api`) that answers a whole turn with one hosted
 * chat-completions call and no tools. `negotiate` is honest: tools or attachments in the request,
 * required tool use, continuation or approvals block; preferred ones and richer traces are warnings
 * that mark the run degraded. `execute` never throws: HTTP failures, timeouts and unusable bodies are
 * `failed` results with a truthful `retryable` and the HTTP status in `error.metadata.httpStatus`;
 * `usage.cost` becomes `usage.costUnits`.
 * @example
 * ```ts
 * const adapter = new OpenRouterExecutionAdapter({ apiKey: process.env.OPENROUTER_API_KEY, model: 'openai/gpt-5-mini' });
 * const negotiation = adapter.negotiate(request);
 * const result = await adapter.execute(request);
 * ```
 */
export class OpenRouterExecutionAdapter implements ExecutionAdapter {
  /** Always `openrouter-api`. */
  readonly backendId = OPENROUTER_BACKEND_ID;
  /** The configured model id. */
  readonly model: string;
  readonly #transport: ProviderTransport;
  readonly #temperature: number | undefined;
  readonly #maxTokens: number | undefined;
  readonly #extraBody: Readonly<Record<string, unknown>>;

  /** @throws HarnessConfigError for an invalid option. */
  constructor(options: OpenRouterExecutionAdapterOptions = {}) {
    if (typeof options !== 'object' || options === null) throw new HarnessConfigError('Options must be an object.', { field: 'options' });
    const baseUrl = assertEndpointAllowed(options.baseUrl ?? DEFAULT_OPENROUTER_OPTIONS.baseUrl, 'baseUrl', { allowInsecureHttp: options.allowInsecureHttp });
    this.model = requiredString(options.model ?? DEFAULT_OPENROUTER_OPTIONS.model, 'model');
    this.#temperature = optionalFiniteNumber(options.temperature, 'temperature');
    this.#maxTokens = optionalPositiveInteger(options.maxTokens, 'maxTokens');
    const extraBody = options.extraBody ?? {};
    if (typeof extraBody !== 'object' || extraBody === null || Array.isArray(extraBody)) {
      throw new HarnessConfigError('extraBody must be an object.', { field: 'extraBody' });
    }
    this.#extraBody = extraBody;
    const transportOptions = resolveHttpProviderOptions(options, baseUrl);
    this.#transport = createProviderTransport({
      url: joinUrl(baseUrl, '/chat/completions'),
      options: { ...transportOptions, headers: { ...openRouterAttributionHeaders(options), ...transportOptions.headers } },
      authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
      label: 'OpenRouter',
    });
    defineExecutionAdapter(this);
  }

  /** A fresh copy of the declared capabilities. */
  describeCapabilities(): ExecutionCapabilities {
    return cloneCapabilities();
  }

  /** Compares the request with the capabilities (see the class description). Pure and synchronous. */
  negotiate(request: ExecutionRequest): ExecutionNegotiation {
    const extra: ExecutionNegotiationReason[] = [];
    const resume = request.resume?.type;
    if (resume === 'clarification' || resume === 'approval') {
      extra.push({ code: 'continuation_unsupported', severity: 'blocking', message: `OpenRouter cannot resume a turn paused for ${resume}.` });
    } else if (request.continuation !== undefined) {
      extra.push({
        code: 'continuation_unsupported',
        severity: 'warning',
        message: 'OpenRouter ignores the continuation state; the call starts fresh.',
      });
    }
    return negotiateCapabilities(cloneCapabilities(), request, extra);
  }

  /**
   * Runs the turn: one request with the system and developer prompts, the context, the
   * conversation `history` (user and assistant messages, oldest first) and the user's message. Aborted by `options.signal`; bounded by `request.timeoutMs` (reported as `timeout`).
   * A malformed request is a `failed` result with error code `invalid_request`; nothing is sent.
   */
  async execute(untrusted: ExecutionRequest, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const checked = checkExecutionRequest(untrusted, this.backendId);
    if (!checked.ok) return checked.result;
    const request = checked.request;
    const negotiation = this.negotiate(request);
    if (!negotiation.supported) return unsupportedResult(negotiation);
    const startedAt = Date.now();
    let body: Record<string, unknown>;
    try {
      body = this.#body(request);
    } catch (error) {
      if (!(error instanceof UnsupportedInputError)) throw error;
      // An attachment chat completions cannot carry (a file by URL …): nothing is sent.
      return { ...unsupportedResult(negotiation), error: { code: 'unsupported_capability', message: error.message, retryable: false, metadata: { code: error.reason } } };
    }
    const link = linkAbortSignal(options.signal);
    let timedOut = false;
    const timeoutMs = request.timeoutMs;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            link.abort(new Error('timeout'));
          }, Math.max(0, timeoutMs));
    try {
      const outcome = await this.#transport.sendJson(body, {
        signal: link.signal,
        ...(timeoutMs === undefined ? {} : { deadlineAt: startedAt + timeoutMs }),
      });
      const context: ExecutionContext = {
        negotiation,
        startedAt,
        model: this.model,
        attempts: 'attempts' in outcome ? outcome.attempts : 0,
        redactor: outcome.redactor,
      };
      if (outcome.type === 'missing_key') {
        return failedResult(context, { code: 'backend_execution_error', message: outcome.message, retryable: false, metadata: { errorCode: 'missing_api_key' } });
      }
      if (outcome.type === 'failed') {
        if (timedOut && outcome.error.failure === 'aborted') {
          return failedResult(context, { code: 'timeout', message: `OpenRouter did not answer within ${String(timeoutMs)} ms.`, retryable: true });
        }
        return failedResult(context, httpErrorToExecutionError(outcome.error));
      }
      if (outcome.type === 'invalid_json') {
        return failedResult(context, { code: 'invalid_backend_output', message: 'OpenRouter answered with a body that is not valid JSON.', retryable: false });
      }
      const parsed = openAICompatibleResponseSchema.safeParse(outcome.value);
      if (!parsed.success) {
        return failedResult(context, {
          code: 'invalid_backend_output',
          message: `The response does not match the chat-completions format: ${formatIssues(parsed.error.issues)}.`,
          retryable: false,
        });
      }
      return messageResult(context, readOpenAICompatibleResponse(parsed.data));
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      link.dispose();
    }
  }

  #body(request: ExecutionRequest): Record<string, unknown> {
    return {
      ...this.#extraBody,
      model: this.model,
      messages: convertToOpenAICompatibleMessages({
        instructions: request.instructions,
        message: request.message,
        transcript: [],
        ...(request.context === undefined ? {} : { context: request.context }),
        ...(request.history === undefined ? {} : { history: request.history }),
      }),
      ...(this.#temperature === undefined ? {} : { temperature: this.#temperature }),
      ...(this.#maxTokens === undefined ? {} : { max_tokens: this.#maxTokens }),
    };
  }
}

/** Creates an `OpenRouterExecutionAdapter`. */
export function createOpenRouterAdapter(options: OpenRouterExecutionAdapterOptions = {}): OpenRouterExecutionAdapter {
  return new OpenRouterExecutionAdapter(options);
}

function cloneCapabilities(): ExecutionCapabilities {
  const { notes, ...rest } = OPENROUTER_EXECUTION_CAPABILITIES;
  return { ...rest, ...(notes === undefined ? {} : { notes: [...notes] }) };
}
