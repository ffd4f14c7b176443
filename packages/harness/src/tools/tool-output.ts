import type { HarnessUsage } from '../shared/types/usage.js';
import { hasErrorMarker } from '../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.tool-output');

/** Parts of a tool result built with {@link toolOutput}. */
export interface ToolOutputParts {
  /** Text for the model (`output`). @default undefined */
  text?: string | undefined;
  /** Structured data (`structuredOutput`); must be JSON-serialisable. @default undefined */
  data?: Record<string, unknown> | undefined;
  /** Usage the tool incurred, added to the turn's totals. @default undefined */
  usage?: HarnessUsage | undefined;
  /** Result metadata, not shown to the model by the built-in adapters. @default undefined */
  metadata?: Record<string, unknown> | undefined;
}

/** A tool return value carrying text and data at once; create it with {@link toolOutput}. */
export interface ToolOutput extends ToolOutputParts {
  readonly [marker]: true;
}

/**
 * Returns both text and structured data from a tool's `execute` (a plain string becomes
 * `output`, a plain object `structuredOutput`).
 * @example
 * ```ts
 * return toolOutput({ text: 'Sunny, 21 °C', data: { city, celsius: 21 } });
 * ```
 */
export function toolOutput(parts: ToolOutputParts): ToolOutput {
  return { ...parts, [marker]: true };
}

/** True for a value made by {@link toolOutput}. */
export function isToolOutput(value: unknown): value is ToolOutput {
  return hasErrorMarker(value, marker);
}
