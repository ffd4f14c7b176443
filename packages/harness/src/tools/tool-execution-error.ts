import { HarnessError, type HarnessErrorOptions } from '../core/errors/harness-error.js';
import { hasErrorMarker } from '../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.ToolExecutionError');

/** Options of a {@link ToolExecutionError}. */
export interface ToolExecutionErrorOptions extends HarnessErrorOptions {
  /**
   * Becomes `error.code` of the tool result, e.g. `not_found`.
   * @default 'tool_error'
   */
  reason?: string | undefined;
  /**
   * `true` lets the model see the error and try again; `false` ends the turn
   * `failed` / `tool_error_unrecoverable`.
   * @default false
   */
  retryable?: boolean | undefined;
  /**
   * Extra JSON-safe details, copied to `error.metadata` of the tool result.
   * @default undefined
   */
  metadata?: Record<string, unknown> | undefined;
}

/**
 * Throw this from a tool's `execute` to control the structured error the model sees. Any other
 * thrown value becomes a non-retryable `tool_error`.
 * @example
 * ```ts
 * throw new ToolExecutionError('No city named "Osloo"; check the spelling.', { reason: 'not_found', retryable: true });
 * ```
 */
export class ToolExecutionError extends HarnessError {
  /** The tool result's `error.code`. */
  readonly reason: string;
  /** Whether the model may retry. */
  readonly retryable: boolean;
  /** Extra details for `error.metadata`. */
  readonly metadata: Record<string, unknown> | undefined;
  constructor(message: string, options: ToolExecutionErrorOptions = {}) {
    super('HARNESS_ERR_TOOL_EXECUTION', message, options);
    Object.defineProperty(this, marker, { value: true });
    this.name = 'ToolExecutionError';
    this.reason = options.reason ?? 'tool_error';
    this.retryable = options.retryable ?? false;
    this.metadata = options.metadata;
  }

  /** True for any `ToolExecutionError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is ToolExecutionError {
    return hasErrorMarker(value, marker);
  }
}
