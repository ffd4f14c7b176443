import type { HarnessContextBlock } from './types/turn-input.js';

/**
 * The text of a prepared context block: its `content`, or its `text` when it has no `content`
 * (both spellings are accepted on the turn input and on an `ExecutionRequest`). Backends that
 * render context should read blocks through this.
 * @example
 * ```ts
 * const rendered = request.context?.blocks.map((block) => `## ${block.label}\n${contextBlockText(block)}`);
 * ```
 */
export function contextBlockText(block: HarnessContextBlock): string {
  return typeof block.content === 'string' ? block.content : typeof block.text === 'string' ? block.text : '';
}
