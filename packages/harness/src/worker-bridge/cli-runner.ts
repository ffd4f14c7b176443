import type { ExecutionRequest, ExecutionResult, ExecutionStreamEvent } from '../execution/types.js';

/** What the worker bridge hands a runner for one request. */
export interface CliRunInput {
  /**
   * The whole turn as the orchestrator sent it, validated. `request.continuation` (or
   * `metadata.backendContinuation`) is the worker session to continue; `request.timeoutMs` is
   * already lowered to `timeoutMs`.
   */
  request: ExecutionRequest;
  /**
   * The prompt built from all of the request: the system and developer prompt, the context
   * blocks, structured context, the message and any resume resolution (`buildLocalPrompt`). The
   * built-in runners build the same text themselves (Claude Code takes the instructions as its
   * system prompt); a custom runner can send this as is.
   */
  prompt: string;
  /** Milliseconds this run may take. */
  timeoutMs: number;
  /**
   * Aborted when the run times out (reason: a `TimeoutError`), is cancelled by the orchestrator
   * or the bridge shuts down (an `AbortError`). The runner must stop its process then.
   */
  signal: AbortSignal;
  /**
   * Present when the orchestrator streams the turn (`streamTurn`): the runner may report its live
   * events (`text_delta`, `tool_activity`, …) here, and the bridge sends them to the orchestrator
   * ahead of the result. Calls after the run ended are ignored.
   */
  onEvent?: ((event: ExecutionStreamEvent) => void) | undefined;
}

/**
 * Runs one turn on the worker's machine for the worker bridge — usually a local CLI. Resolves
 * with an `ExecutionResult` (the CLI's answer, usage, errors and its session as `continuation`)
 * and should not reject: the bridge turns a rejection into a `failed` result.
 */
export interface CliRunner {
  /** A short name for logs and metadata, e.g. `claude` or `bash`. */
  readonly id: string;
  /** Runs one request; resolves once its process is gone. */
  run(input: CliRunInput): Promise<ExecutionResult>;
}
