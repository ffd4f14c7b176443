import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import type { HarnessToolExecutionContext } from '../shared/types/tools.js';
import { checkSchemaShape } from './internal/resolve-json-schema.js';
import type { ToolOutput } from './tool-output.js';
import type { InferToolInput, ToolInputSchema } from './tool-input-schema.js';
import { hasErrorMarker } from '../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.typed-tool');

/** Tool names models accept: letters, digits, `_` and `-`, at most 64 characters. */
const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** What `execute` receives besides its input. */
export interface ToolContext extends HarnessToolExecutionContext {
  /** The id of the call being run. */
  callId: string;
  /** The tool's name. */
  toolName: string;
  /**
   * Aborted when the tool's `timeoutMs` passes or the turn is cancelled or runs out of time.
   * Pass it to `fetch` and other cancellable work.
   */
  signal: AbortSignal;
}

/**
 * What `execute` may return: a string (`output`), an object (`structuredOutput`; arrays become
 * `{ items }`), a {@link ToolOutput} for both, or nothing (empty `output`).
 */
export type ToolReturn = string | object | ToolOutput | undefined | void;

/** Whether a call needs a person's approval: always, never, or depending on the parsed input. */
export type ToolApprovalRule<TInput> = boolean | ((input: TInput) => boolean);

/** How {@link defineTool} retries a call that failed with a retryable error. */
export interface ToolRetryOptions {
  /** Attempts in all, the first included: an integer from 1 to 10. */
  attempts: number;
  /**
   * Wait before the second attempt, in milliseconds; each later wait doubles. A retry whose wait
   * would reach the turn's deadline is not made, and the last error goes to the model.
   * @default 0
   */
  backoffMs?: number | undefined;
}

/** Options of {@link defineTool}. */
export interface DefineToolOptions<TSchema extends ToolInputSchema> {
  /** Unique name the model calls the tool by: `[A-Za-z0-9_-]{1,64}`. */
  name: string;
  /** What the tool does and when to use it, written for the model. */
  description: string;
  /** The input schema: zod 4, any Standard Schema with JSON Schema support, or `{ jsonSchema, validate? }`. */
  input: TSchema;
  /**
   * `true`, or a function of the parsed input returning `true`, pauses the turn for approval
   * before the call runs. The function gets the input only when the schema validates it
   * synchronously; an asynchronous schema means approval is always asked for.
   * @default false
   */
  requiresApproval?: ToolApprovalRule<InferToolInput<TSchema>> | undefined;
  /**
   * Longest time `execute` may run, in milliseconds. When it passes the tool's signal is aborted
   * and the model gets a retryable `timeout` error. `undefined` leaves only the turn's limit.
   * @default undefined
   */
  timeoutMs?: number | undefined;
  /**
   * Runs `execute` again when it fails with a retryable error (a {@link ToolExecutionError} with
   * `retryable: true`, or a `timeoutMs` timeout), up to `attempts` times in all, bounded by the
   * turn's deadline. Invalid input and a stopped turn are never retried. Only retry work that is
   * safe to repeat. The result carries `metadata.attempts` when a retry ran.
   * @default undefined (one attempt)
   */
  retry?: ToolRetryOptions | undefined;
  /** Extra data copied to the tool definition's `metadata`. @default undefined */
  metadata?: Record<string, unknown> | undefined;
  /** Runs the tool with validated, parsed input. Throw {@link ToolExecutionError} to shape the error. */
  execute(input: InferToolInput<TSchema>, context: ToolContext): ToolReturn | Promise<ToolReturn>;
}

/** A tool made by {@link defineTool}; add it to a registry with `createToolRegistry`. */
export interface TypedTool<TInput = unknown> {
  /** The name the model calls. */
  readonly name: string;
  /** The description the model reads. */
  readonly description: string;
  /** The input schema, as given. */
  readonly input: ToolInputSchema;
  /** The approval rule, as given. */
  readonly requiresApproval: ToolApprovalRule<TInput> | undefined;
  /** The time limit of `execute`, in milliseconds. */
  readonly timeoutMs: number | undefined;
  /** The retry policy, as given. */
  readonly retry: Readonly<ToolRetryOptions> | undefined;
  /** Extra data for the tool definition. */
  readonly metadata: Record<string, unknown> | undefined;
  /** Your function; registries call it only with validated input. */
  execute(input: TInput, context: ToolContext): ToolReturn | Promise<ToolReturn>;
}

/** A typed tool of any input type, as registries accept it. */
export type AnyTypedTool = TypedTool<never>;

/**
 * Defines a tool whose input is validated against a schema before `execute` runs. The model gets
 * JSON Schema derived from the schema; invalid input goes back to it as a retryable
 * `invalid_input` error naming the fields.
 * @throws HarnessConfigError for a bad name, description, schema or timeout.
 * @example
 * ```ts
 * const weather = defineTool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city.',
 *   input: z.object({ city: z.string().describe('City name') }),
 *   execute: async ({ city }, { signal }) => (await fetch(`https://wttr.in/${city}?format=3`, { signal })).text(),
 * });
 * ```
 */
export function defineTool<TSchema extends ToolInputSchema>(
  options: DefineToolOptions<TSchema>
): TypedTool<InferToolInput<TSchema>> {
  const { name, description, input, requiresApproval, timeoutMs, retry, metadata, execute } = options ?? ({} as never);
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    throw new HarnessConfigError(`Tool name ${JSON.stringify(name)} must match ${String(TOOL_NAME_PATTERN)}.`, { field: 'name' });
  }
  if (typeof description !== 'string' || description.trim() === '') {
    throw new HarnessConfigError(`Tool ${name} needs a non-empty description.`, { field: 'description' });
  }
  if (typeof execute !== 'function') {
    throw new HarnessConfigError(`Tool ${name} needs an execute function.`, { field: 'execute' });
  }
  if (requiresApproval !== undefined && typeof requiresApproval !== 'boolean' && typeof requiresApproval !== 'function') {
    throw new HarnessConfigError(`Tool ${name}: requiresApproval must be a boolean or a function.`, {
      field: 'requiresApproval',
    });
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new HarnessConfigError(`Tool ${name}: timeoutMs must be a positive number of milliseconds.`, { field: 'timeoutMs' });
  }
  checkRetry(name, retry);
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null)) {
    throw new HarnessConfigError(`Tool ${name}: metadata must be an object.`, { field: 'metadata' });
  }
  checkSchemaShape(name, input);
  const tool: TypedTool<InferToolInput<TSchema>> & { readonly [marker]: true } = {
    name,
    description,
    input,
    requiresApproval,
    timeoutMs,
    retry: retry === undefined ? undefined : Object.freeze({ attempts: retry.attempts, backoffMs: retry.backoffMs ?? 0 }),
    metadata,
    execute: (value, context) => execute.call(options, value, context),
    [marker]: true,
  };
  return Object.freeze(tool);
}

function checkRetry(name: string, retry: ToolRetryOptions | undefined): void {
  if (retry === undefined) return;
  if (typeof retry !== 'object' || retry === null) {
    throw new HarnessConfigError(`Tool ${name}: retry must be an object { attempts, backoffMs }.`, { field: 'retry' });
  }
  const { attempts, backoffMs } = retry;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > 10) {
    throw new HarnessConfigError(`Tool ${name}: retry.attempts must be an integer from 1 to 10.`, { field: 'retry.attempts' });
  }
  if (backoffMs !== undefined && !(Number.isFinite(backoffMs) && backoffMs >= 0)) {
    throw new HarnessConfigError(`Tool ${name}: retry.backoffMs must be 0 or more milliseconds.`, { field: 'retry.backoffMs' });
  }
}

/** True for a tool made by {@link defineTool} (in any copy of this package). */
export function isTypedTool(value: unknown): value is AnyTypedTool {
  return hasErrorMarker(value, marker);
}
