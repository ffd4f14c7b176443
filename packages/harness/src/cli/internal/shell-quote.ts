/** Characters no POSIX shell (nor bash or zsh) gives a meaning to anywhere in a word. */
const PLAIN = /^[A-Za-z0-9_@+:,./-]+$/;

/**
 * One argument for a command line a person may paste into a POSIX shell (sh, bash, zsh): as it is
 * when every character is plain, otherwise in single quotes (a `'` inside written `'\''`), so the
 * shell passes it literally and expands, substitutes and runs nothing in it.
 */
export function shellQuote(argument: string): string {
  return PLAIN.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}
