import { expect } from 'vitest';
import type { HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';

/** Reads a `streamStep`: its text and reasoning deltas, in order, and its one output (asserted). */
export async function collectStreamParts(parts: AsyncIterable<HarnessModelStreamPart>): Promise<{ deltas: string[]; reasoning: string[]; output: HarnessModelOutput }> {
  const deltas: string[] = [];
  const reasoning: string[] = [];
  const outputs: HarnessModelOutput[] = [];
  for await (const part of parts) {
    if (part.type === 'text_delta') deltas.push(part.text);
    else if (part.type === 'reasoning_delta') reasoning.push(part.text);
    else outputs.push(part.output);
  }
  expect(outputs).toHaveLength(1);
  return { deltas, reasoning, output: outputs[0]! };
}
