import type { Redactor } from '../../shared/redact-secrets.js';

/** Most notes one step collects (the harness keeps 16 per output; one more says how many were left out). */
const MAX_NOTES = 15;

/** The notes of one step: what the adapter skipped without failing it, each said once. */
export interface ProviderNotes {
  add(note: string): void;
  /** The notes so far, in order, plus one counting those left out past the limit. */
  list(): string[];
}

/** Creates an empty, bounded set of notes. */
export function createProviderNotes(): ProviderNotes {
  const notes = new Set<string>();
  let dropped = 0;
  return {
    add(note) {
      if (notes.has(note)) return;
      if (notes.size < MAX_NOTES) notes.add(note);
      else dropped += 1;
    },
    list: () => (dropped === 0 ? [...notes] : [...notes, `${dropped} more notes were left out.`]),
  };
}

/** `output` with the step's notes (redacted) when there are any. */
export function withNotes<T extends object>(output: T, notes: readonly string[] | undefined, redactor: Redactor): T {
  return notes === undefined || notes.length === 0 ? output : { ...output, notes: notes.map((note) => redactor.text(note)) };
}
