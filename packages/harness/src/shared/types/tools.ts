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
  description?: string;
  /** JSON Schema of the tool's input object. */
  inputSchema?: Record<string, unknown>;
  /**
   * When `true` (or when the function returns `true` for a call's input) the harness does not
   * run the call; the turn ends `awaiting_approval` and the call runs only after approval on resume.
   */
  requiresApproval?: boolean | ((input: Record<string, unknown>) => boolean);
  metadata?: Record<string, unknown>;
}

/** Who is asking which tools are available. */
export interface HarnessToolAvailabilityInput {
  assistantId: string;
  turnId: string;
  workspaceId?: string;
  sessionId?: string;
  userId?: string;
  threadId?: string;
  allowedToolNames?: string[];
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
  retryable?: boolean;
  metadata?: Record<string, unknown>;
}

/** The outcome of one tool call. */
export interface HarnessToolResult {
  callId: string;
  toolName: string;
  status: 'success' | 'error';
  output?: string;
  structuredOutput?: Record<string, unknown>;
  error?: HarnessToolError;
  usage?: HarnessUsage;
  metadata?: Record<string, unknown>;
}

/** The tool seam: what tools exist, and how to run one. */
export interface HarnessToolRegistry {
  listAvailable(
    input: HarnessToolAvailabilityInput,
  ): HarnessToolDefinition[] | Promise<HarnessToolDefinition[]>;
  execute(call: HarnessToolCall, context: HarnessToolExecutionContext): Promise<HarnessToolResult>;
}
