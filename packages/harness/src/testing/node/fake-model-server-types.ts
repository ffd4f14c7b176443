/** A tool call the fake model makes. */
export interface FakeToolCallReply {
  /**
   * @default `call_fake_<n>` (OpenAI-compatible) or `toolu_fake_<n>` (Anthropic), `n` counting the
   * server's calls from 1 (unique across replies); OpenAI Responses `call_fake_<request>_<n>`
   */
  id?: string | undefined;
  /** The tool's name. */
  name: string;
  /** The arguments: an object (sent as JSON) or a raw string (to test malformed JSON). */
  arguments: Record<string, unknown> | string;
}

/** Usage the fake model reports. `cost` is OpenRouter's `usage.cost` (ignored by the Anthropic server). */
export interface FakeUsageReply {
  /** Prompt / input tokens. */
  inputTokens?: number | undefined;
  /** Completion / output tokens. */
  outputTokens?: number | undefined;
  /** The part of `inputTokens` served from the prompt cache (OpenAI `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`). */
  cachedInputTokens?: number | undefined;
  /** The part of `outputTokens` spent on reasoning (OpenAI `completion_tokens_details.reasoning_tokens`). */
  reasoningTokens?: number | undefined;
  /** OpenRouter's `usage.cost`, in USD. */
  cost?: number | undefined;
}

/**
 * A model answer, rendered in the protocol's real wire format: a JSON body, or SSE events when the
 * request asked for `stream: true` (text and tool-call arguments split into small deltas).
 */
export interface FakeModelReply {
  /** Optional discriminator; a reply without `type` is a model reply. */
  type?: 'model' | undefined;
  /** The assistant text (streamed in `deltaSize` pieces). */
  text?: string | undefined;
  /** Tool calls (arguments streamed in `deltaSize` pieces). */
  toolCalls?: FakeToolCallReply[] | undefined;
  /**
   * A provider refusal: OpenAI `message.refusal` (Responses: a `refusal` content part), Anthropic
   * `stop_reason: "refusal"`, Gemini `finishReason: "SAFETY"`.
   */
  refusal?: string | undefined;
  /**
   * Reasoning before the answer. OpenAI Responses: a `reasoning` item with this summary (and
   * `encrypted_content` when the request asked for it), which the server then expects back with
   * the step's function calls. Gemini: a thought part with this text and a `thoughtSignature` on
   * the first function-call part, which the server then expects back. Anthropic: a `thinking` block
   * with this text and a signature (streamed as `thinking_delta` and `signature_delta`), which the
   * server then expects back unchanged. OpenAI-compatible: OpenRouter's `reasoning` text and
   * `reasoning_details` (with a signature). Ollama: `message.thinking`.
   */
  reasoning?: string | undefined;
  /**
   * Anthropic: a `redacted_thinking` block with this opaque `data` (after any `thinking` block),
   * which the server then expects back unchanged. Ignored by the others.
   */
  redactedReasoning?: string | undefined;
  /** Gemini: the prompt was blocked (`promptFeedback.blockReason`, e.g. `SAFETY`); no candidate is sent. */
  blockReason?: string | undefined;
  /** The wire finish/stop reason. @default derived from the content */
  finishReason?: string | undefined;
  /** Token counts and OpenRouter cost to report. @default none */
  usage?: FakeUsageReply | undefined;
  /** An error the provider reports inside a 200 response (OpenRouter error chunk, Anthropic `error` event). */
  error?: { message: string; code?: string | number | undefined } | undefined;
  /** Characters per streamed text or argument delta. @default 4 */
  deltaSize?: number | undefined;
  /** SSE only: end the response after this many events, before the terminal one (a truncated stream). */
  truncateAfterEvents?: number | undefined;
  /** SSE only: send this many events, then keep the connection open and silent. */
  stallAfterEvents?: number | undefined;
  /** Extra response headers. */
  headers?: Record<string, string> | undefined;
}

/** A protocol-shaped error response (`{ error: … }`), optionally with `Retry-After`. */
export interface FakeErrorReply {
  type: 'error';
  status: number;
  message?: string | undefined;
  /** Sent as the `Retry-After` header (seconds, or an HTTP date). */
  retryAfter?: string | number | undefined;
  headers?: Record<string, string> | undefined;
}

/** Any HTTP response: `body` is sent as JSON unless it is a string (sent as is). */
export interface FakeHttpReply {
  type: 'http';
  status: number;
  body?: unknown;
  headers?: Record<string, string> | undefined;
}

/** Raw SSE text, written chunk by chunk exactly as given (to test framing). */
export interface FakeSseReply {
  type: 'sse';
  chunks: string[];
  status?: number | undefined;
  headers?: Record<string, string> | undefined;
  /** `false` keeps the connection open after the chunks. @default true */
  end?: boolean | undefined;
}

/** Never answers: no status, no headers. For timeout tests. */
export interface FakeHangReply {
  type: 'hang';
}

/** One scripted answer. */
export type FakeServerReply = FakeModelReply | FakeErrorReply | FakeHttpReply | FakeSseReply | FakeHangReply;

/** A scripted answer, or a function of the request that returns one. */
export type FakeServerScript = FakeServerReply | ((request: FakeRecordedRequest) => FakeServerReply);

/** A request the fake server received. */
export interface FakeRecordedRequest {
  method: string;
  /** The path, without the query string. */
  path: string;
  /** The query string with its leading `?`, or `''` when there is none. */
  search: string;
  /** Request headers, lower-cased. */
  headers: Record<string, string>;
  /** The JSON body, or the raw text when it was not JSON (`undefined` while it is still arriving). */
  body: unknown;
  /** Resolves when the response ended or the client closed the connection. */
  readonly closed: Promise<void>;
  /** True when the client went away before the response was complete (e.g. an aborted `fetch`). */
  abortedByClient(): boolean;
}

/** A running fake model server on a loopback port. */
export interface FakeModelServer {
  /** The base URL to configure as `baseUrl`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: FakeRecordedRequest[];
  /** Adds answers for the next requests, in order. */
  enqueue(...replies: FakeServerScript[]): void;
  /** Scripted answers not used yet. */
  pending(): number;
  /** Stops the server and drops open connections (including hanging and stalled ones). */
  close(): Promise<void>;
}

/** Options of the fake server factories. */
export interface FakeModelServerOptions {
  /** Answers for the first requests, in order. @default [] */
  replies?: FakeServerScript[] | undefined;
  /**
   * The loopback port to listen on (a fixed one lets a saved profile point at the server).
   * @default 0 (any free port)
   */
  port?: number | undefined;
}
