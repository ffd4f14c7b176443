/** The longest description `describeError` returns by default, in characters. */
export const MAX_ERROR_DESCRIPTION_LENGTH = 2_000;

/**
 * A short, readable description of any thrown value that never throws itself: an `Error`'s (or
 * error-like object's) `message`, a thrown string, or a note naming a thrown primitive. Getters
 * and Proxy traps that throw, `null`, symbols and BigInts are all described instead of
 * propagating. Longer descriptions are cut to `maxLength` characters.
 */
export function describeError(error: unknown, maxLength = MAX_ERROR_DESCRIPTION_LENGTH): string {
  let text: string;
  try {
    text = readDescription(error);
  } catch {
    text = 'Unknown error (the thrown value could not be read)';
  }
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

function readDescription(error: unknown): string {
  switch (typeof error) {
    case 'string':
      return error === '' ? 'Unknown error' : error;
    case 'number':
    case 'bigint':
    case 'boolean':
      return `Unknown error (thrown value: ${String(error)})`;
    case 'symbol':
      return `Unknown error (thrown symbol: ${String(error.description ?? '')})`;
    case 'object':
    case 'function': {
      if (error === null) return 'Unknown error';
      const message: unknown = (error as { message?: unknown }).message;
      return typeof message === 'string' && message !== '' ? message : 'Unknown error';
    }
    default:
      return 'Unknown error';
  }
}
