/**
 * Tool results this package built itself from a string only (`{ callId, toolName, status:
 * 'success', output }`), frozen when made. A `WeakSet` works by identity, so no value from
 * outside can claim to be one, and a frozen result cannot be changed on its way to the loop; the
 * loop takes such a result without validating and copying it again.
 */
const plainTextResults = new WeakSet<object>();

/** A frozen successful text result, marked as built by this package. */
export function plainTextToolResult(callId: string, toolName: string, output: string): {
  readonly callId: string;
  readonly toolName: string;
  readonly status: 'success';
  readonly output: string;
} {
  const result = Object.freeze({ callId, toolName, status: 'success' as const, output });
  plainTextResults.add(result);
  return result;
}

/** The output text of a result made by {@link plainTextToolResult}; `undefined` for any other value. */
export function plainToolResultText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !plainTextResults.has(value)) return undefined;
  return (value as { output: string }).output;
}
