import * as v from '../../shared/validation/index.js';
import type { HarnessToolState } from '../../shared/types/tools.js';
import { createToolRegistry, type TypedToolRegistry } from '../create-tool-registry.js';
import { defineTool } from '../define-tool.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { checkedInput, requireState } from '../checked-input.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { toolOutput } from '../tool-output.js';

/** Options of {@link createScratchpadToolRegistry}. */
export interface ScratchpadToolOptions {
  /** Most notes at once: 1 to 100. @default 20 */
  maxNotes?: number | undefined;
  /** Longest note, in characters: 1 to 32768. @default 8000 */
  maxNoteChars?: number | undefined;
}

/** The names of the scratchpad tools. */
export const SCRATCHPAD_TOOL_NAMES = ['scratchpad_write', 'scratchpad_read', 'scratchpad_list', 'scratchpad_delete'] as const;

const STATE_KEY = 'scratchpad.notes';
const NAME_SOURCE = '^[A-Za-z0-9._-]{1,64}$';
const NAME_PATTERN = /* @__PURE__ */ new RegExp(NAME_SOURCE);
const NAME_FIELD = { type: 'string', pattern: NAME_SOURCE, description: 'Note name, e.g. "draft.md".' } as const;

interface Note {
  name: string;
  content: string;
}

/**
 * Creates the scratchpad tools: named notes the model writes, appends to, reads, lists and
 * deletes within a turn. Notes are kept in the turn's tool state, so they survive a pause and
 * resume; their count and size are bounded by the options and the tool state limit.
 * @throws HarnessConfigError for out-of-range options.
 * @example
 * ```ts
 * const tools = composeToolRegistries(createScratchpadToolRegistry({ maxNotes: 10 }), myTools);
 * ```
 */
export function createScratchpadToolRegistry(options: ScratchpadToolOptions = {}): TypedToolRegistry {
  const maxNotes = boundedOption(options.maxNotes, 20, 100, 'maxNotes');
  const maxNoteChars = boundedOption(options.maxNoteChars, 8000, 32_768, 'maxNoteChars');
  const name = () => v.string().check(v.regex(NAME_PATTERN));

  const write = defineTool({
    name: 'scratchpad_write',
    description:
      `Write a named note to your scratchpad for this task (at most ${String(maxNotes)} notes of ` +
      `${String(maxNoteChars)} characters). mode "append" adds to the end of an existing note.`,
    input: checkedInput(
      {
        properties: {
          name: NAME_FIELD,
          content: { type: 'string', maxLength: maxNoteChars },
          mode: { type: 'string', enum: ['replace', 'append'], description: 'Default "replace".' },
        },
        required: ['name', 'content'],
      },
      () => v.object({ name: name(), content: v.string(), mode: v.optional(v.enum(['replace', 'append'])) }),
    ),
    execute: (input, { state, toolName }) => {
      const store = requireState(state, toolName);
      const notes = readNotes(store);
      const existing = notes.find((note) => note.name === input.name);
      const content = input.mode === 'append' && existing !== undefined ? existing.content + input.content : input.content;
      if (content.length > maxNoteChars) {
        throw new ToolExecutionError(`Note "${input.name}" would have ${String(content.length)} characters; the limit is ${String(maxNoteChars)}.`, {
          reason: 'note_too_large',
          retryable: true,
        });
      }
      if (existing === undefined && notes.length >= maxNotes) {
        throw new ToolExecutionError(`The scratchpad already holds ${String(maxNotes)} notes; delete one first.`, {
          reason: 'scratchpad_full',
          retryable: true,
        });
      }
      const next = existing === undefined ? [...notes, { name: input.name, content }] : notes.map((note) => (note === existing ? { name: note.name, content } : note));
      save(store, next);
      return `Saved "${input.name}" (${String(content.length)} characters).`;
    },
  });
  const read = defineTool({
    name: 'scratchpad_read',
    description: 'Read a note from your scratchpad.',
    input: checkedInput({ properties: { name: NAME_FIELD }, required: ['name'] }, () => v.object({ name: name() })),
    execute: (input, { state, toolName }) => {
      const note = readNotes(requireState(state, toolName)).find((item) => item.name === input.name);
      if (note === undefined) throw missing(input.name);
      return note.content;
    },
  });
  const list = defineTool({
    name: 'scratchpad_list',
    description: 'List the notes in your scratchpad with their sizes.',
    input: checkedInput({ properties: {} }, () => v.object({})),
    execute: (_input, { state, toolName }) => {
      const notes = readNotes(requireState(state, toolName)).map((note) => ({ name: note.name, chars: note.content.length }));
      const text = notes.length === 0 ? 'The scratchpad is empty.' : notes.map((note) => `${note.name} (${String(note.chars)} characters)`).join('\n');
      return toolOutput({ text, data: { notes } });
    },
  });
  const remove = defineTool({
    name: 'scratchpad_delete',
    description: 'Delete a note from your scratchpad.',
    input: checkedInput({ properties: { name: NAME_FIELD }, required: ['name'] }, () => v.object({ name: name() })),
    execute: (input, { state, toolName }) => {
      const store = requireState(state, toolName);
      const notes = readNotes(store);
      if (!notes.some((note) => note.name === input.name)) throw missing(input.name);
      save(store, notes.filter((note) => note.name !== input.name));
      return `Deleted "${input.name}".`;
    },
  });
  return createToolRegistry([write, read, list, remove]);
}

function missing(name: string): ToolExecutionError {
  return new ToolExecutionError(`There is no note named "${name}"; scratchpad_list shows the notes.`, { reason: 'not_found', retryable: true });
}

function save(store: HarnessToolState, notes: Note[]): void {
  const written = store.set(STATE_KEY, notes);
  if (!written.ok) {
    throw new ToolExecutionError(`The scratchpad was not changed: ${written.reason}. Shorten or delete notes.`, {
      reason: 'scratchpad_full',
      retryable: true,
    });
  }
}

/** The stored notes, read defensively (they come back from a continuation). */
function readNotes(store: HarnessToolState): Note[] {
  const value = store.get(STATE_KEY);
  if (!Array.isArray(value)) return [];
  return value.filter(
    (note): note is Note => typeof note === 'object' && note !== null && typeof (note as Note).name === 'string' && typeof (note as Note).content === 'string',
  );
}
