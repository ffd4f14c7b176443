/**
 * Tool results this package built itself from a string only (`{ callId, toolName, status:
 * 'success', output }`), frozen when made. The mark is a private field, which only this class's
 * constructor can put on an object, so no value from outside can claim to be one, and a frozen
 * result cannot be changed on its way to the loop; the loop takes such a result without
 * validating and copying it again. (A private field costs a fraction of a `WeakSet` entry per
 * result.)
 */
class PlainTextToolResult {
  readonly #plain = true;
  readonly callId: string;
  readonly toolName: string;
  readonly status: 'success';
  readonly output: string;

  constructor(callId: string, toolName: string, output: string) {
    // Assigned in the order of a plain result's keys, so its JSON is the same.
    this.callId = callId;
    this.toolName = toolName;
    this.status = 'success';
    this.output = output;
    Object.freeze(this);
  }

  static textOf(value: object): string | undefined {
    return #plain in value ? (value as PlainTextToolResult).output : undefined;
  }
}

/** A frozen successful text result, marked as built by this package. */
export function plainTextToolResult(callId: string, toolName: string, output: string): {
  readonly callId: string;
  readonly toolName: string;
  readonly status: 'success';
  readonly output: string;
} {
  return new PlainTextToolResult(callId, toolName, output);
}

/** The output text of a result made by {@link plainTextToolResult}; `undefined` for any other value. */
export function plainToolResultText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return PlainTextToolResult.textOf(value);
}
