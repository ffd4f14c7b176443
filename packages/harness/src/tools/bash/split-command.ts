/** Characters refused anywhere in a command of an allow-listed registry, quoted or not. */
// eslint-disable-next-line no-control-regex -- a NUL byte cannot be part of an argument
const REFUSED = /[$`;|&<>\n\r\u0000]/;

/** Characters refused outside quotes (the shell would give them a meaning we do not). */
const REFUSED_UNQUOTED = new Set(['\\', '*', '?', '[', ']', '{', '}', '(', ')']);

/** Characters refused at the start of an unquoted word (`~` expansion, `#` comments). */
const REFUSED_WORD_START = new Set(['~', '#']);

/** Either the words of a command or why it was refused. */
export type SplitCommand = { ok: true; argv: string[] } | { ok: false; reason: string };

/**
 * Splits a command line into argv without a shell: words are separated by spaces or tabs,
 * `'…'` and `"…"` group a word (no escapes inside). Refuses `$`, backticks, `;`, `|`, `&`, `<`,
 * `>` and line breaks anywhere, and globbing, escapes, subshell brackets, `~` and `#` outside
 * quotes, so no text means something here that it would not mean to a shell.
 */
export function splitCommand(command: string): SplitCommand {
  const refused = REFUSED.exec(command);
  if (refused !== null) return { ok: false, reason: `the character ${JSON.stringify(refused[0])} is not allowed (no shell runs this command)` };
  const argv: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (const char of command) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word += char;
      continue;
    }
    if (char === ' ' || char === '\t') {
      if (word !== undefined) argv.push(word);
      word = undefined;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
      continue;
    }
    if (REFUSED_UNQUOTED.has(char) || (word === undefined && REFUSED_WORD_START.has(char))) {
      return { ok: false, reason: `the character ${JSON.stringify(char)} must be quoted (no shell runs this command, so there is no globbing or escaping)` };
    }
    word = (word ?? '') + char;
  }
  if (quote !== undefined) return { ok: false, reason: `a ${quote} quote is not closed` };
  if (word !== undefined) argv.push(word);
  if (argv.length === 0) return { ok: false, reason: 'the command is empty' };
  return { ok: true, argv };
}
