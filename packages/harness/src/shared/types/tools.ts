import type { HarnessUsage } from './usage.js';

/** A tool call the model asked for. `id` is unique within the turn. */
export interface HarnessToolCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A tool as offered to the model. */
export interface HarnessToolDefinition {
  name: string;
  description?: string | undefined;
  /** JSON Schema of the tool's input object. */
  inputSchema?: Record<string, unknown> | undefined;
  /**
   * When `true` (or when the function returns `true` for a call's input) the harness does not
   * run the call; the turn ends `awaiting_approval` and the call runs only after approval on resume.
   * The function fails closed: if it throws or returns anything but `false`, approval is required.
   */
  requiresApproval?: boolean | ((input: Record<string, unknown>) => boolean) | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Who is asking which tools are available. */
export interface HarnessToolAvailabilityInput {
  assistantId: string;
  turnId: string;
  workspaceId?: string | undefined;
  sessionId?: string | undefined;
  userId?: string | undefined;
  threadId?: string | undefined;
  allowedToolNames?: string[] | undefined;
}

/** Context passed to `HarnessToolRegistry.execute`. */
export interface HarnessToolExecutionContext extends HarnessToolAvailabilityInput {
  iteration: number;
  /** Index of the call within the model's step. */
  toolCallIndex: number;
  /** Aborted when the turn times out or is cancelled. Tools should stop promptly. */
  signal: AbortSignal;
}

/** A structured tool failure. */
export interface HarnessToolError {
  code: string;
  message: string;
  /**
   * `false` ends the turn as `failed` / `tool_error_unrecoverable`. `true` or absent: the error
   * goes back to the model, which may retry or answer.
   */
  retryable?: boolean | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** The outcome of one tool call. */
export interface HarnessToolResult {
  callId: string;
  toolName: string;
  status: 'success' | 'error';
  output?: string | undefined;
  structuredOutput?: Record<string, unknown> | undefined;
  error?: HarnessToolError | undefined;
  usage?: HarnessUsage | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** The tool seam: what tools exist, and how to run one. */
export interface HarnessToolRegistry {
  listAvailable(
    input: HarnessToolAvailabilityInput,
  ): HarnessToolDefinition[] | Promise<HarnessToolDefinition[]>;
  execute(call: HarnessToolCall, context: HarnessToolExecutionContext): Promise<HarnessToolResult>;
}
