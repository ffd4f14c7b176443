/** C0 and C1 control characters and DEL (line breaks, terminal escapes …). */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * True when `text` holds no control character. Relay names and ids must not: a name or id with a
 * line break could pass for another one wherever names are shown or put together.
 */
export function hasNoControlCharacters(text: string): boolean {
  return !CONTROL_CHARACTER.test(text);
}

/** The message of a name or id refused for its control characters. */
export const CONTROL_CHARACTERS_MESSAGE = 'must have no control characters';
