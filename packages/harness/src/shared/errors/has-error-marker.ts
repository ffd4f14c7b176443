/**
 * True when `value` carries an error class's `Symbol.for` marker — the `isInstance` test of every
 * harness error. Any value gets an answer: a Proxy whose traps throw is simply not an instance.
 */
export function hasErrorMarker(value: unknown, marker: symbol): boolean {
  try {
    return typeof value === 'object' && value !== null && marker in value;
  } catch {
    return false;
  }
}
