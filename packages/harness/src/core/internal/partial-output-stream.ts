import { parsePartialJson } from '../output/parse-partial-json.js';
import type { RunContext } from './run-context.js';

/** Answer text past which partial values are no longer read (the final `output` event still comes). */
const MAX_PARTIAL_TEXT_CHARS = 1_048_576;

/**
 * Streams `output_partial` events while a step's answer text arrives, for a turn with an
 * `output` schema: the value the JSON so far stands for, each time it changed. Up to 4 KB the text
 * is read at every delta; past that, once it grew by an eighth (or 4 KB) since the last read, so a
 * long answer costs a bounded number of reads; past 1 MB not at all (the `output` event still comes).
 */
export function createPartialOutputStream(run: RunContext, iteration: number): (text: string) => void {
  let text = '';
  let readAt = 0;
  let shown = '';
  return (delta) => {
    text += delta;
    if (text.length > MAX_PARTIAL_TEXT_CHARS || (text.length > 4_096 && text.length - readAt < Math.min(readAt / 8, 4_096))) return;
    readAt = text.length;
    const partial = parsePartialJson(text);
    if (partial === undefined || typeof partial !== 'object' || partial === null) return;
    const json = JSON.stringify(partial);
    if (json === shown) return;
    shown = json;
    run.trace.stream({ type: 'output_partial', iteration, output: partial });
  };
}
