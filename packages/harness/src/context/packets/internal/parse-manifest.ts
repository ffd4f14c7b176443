import { utf8ByteLength } from '../../../core/continuation/utf8-byte-length.js';
import { formatIssues } from '../../../shared/schemas/format-issues.js';
import { isRecord } from '../../../shared/is-record.js';
import * as v from '../../../shared/validation/index.js';
import { memo } from '../../../shared/schemas/lazy-schema.js';
import { normalizeSourcePath } from '../../../shared/normalize-source-path.js';
import { ContextPacketError } from '../context-packet-error.js';
import { CONTEXT_PACKET_LIMITS } from '../context-packet-limits.js';
import type { ContextPacketRepresentation } from '../context-packet-types.js';

/** A selection after validation: path normalised, representation decided, dependencies as indices. */
export interface ParsedSelection {
  index: number;
  id: string;
  path: string;
  required: boolean;
  representation: ContextPacketRepresentation;
  startLine: number | undefined;
  endLine: number | undefined;
  /** Indices of the selections it depends on, in `dependsOn` order. */
  dependsOn: number[];
}

/** A validated manifest. */
export interface ParsedManifest {
  /** In manifest order. */
  selections: ParsedSelection[];
  /** Every index once, each after the selections it depends on. */
  dependenciesFirst: number[];
}

/** Control characters (C0, DEL, C1) and the line and paragraph separators: never in an id. */
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
/** The smallest selection, `{"id":"a","path":"b"}` and a comma: a longer list cannot be within the byte limit. */
const SMALLEST_SELECTION_BYTES = 22;


function buildSchema() {
  const id = () =>
    v.string().check(
      v.minLength(1),
      v.maxLength(CONTEXT_PACKET_LIMITS.maxIdLength),
      v.refine((value: string) => !CONTROL.test(value), 'must not contain control characters'),
    );
  const line = () => v.int().check(v.gte(1), v.lte(CONTEXT_PACKET_LIMITS.maxLine));
  const path = v.string().check(
    v.minLength(1),
    v.superRefine((value: string, context) => {
      const normalized = normalizeSourcePath(value);
      if (!normalized.ok) context.addIssue({ code: 'custom', message: `path ${normalized.reason}` });
    }),
  );
  const selection = v.strictObject({
    id: id(),
    path,
    required: v.optional(v.boolean()),
    representation: v.optional(v.enum(['whole', 'body'])),
    startLine: v.optional(line()),
    endLine: v.optional(line()),
    dependsOn: v.optional(v.array(id())),
  });
  return v.strictObject({ selections: v.array(selection) });
}

/** Built on first use, so importing the package constructs nothing. */
const manifestSchema = /* @__PURE__ */ memo(buildSchema);

/**
 * Validates a manifest (every field, its size, unique ids, known dependencies, no cycles) and
 * returns its selections in order. Hostile values (throwing getters, proxies, `__proto__` ids)
 * end as a `ContextPacketError`, never as a crash.
 * @throws ContextPacketError `invalid_manifest`, `unknown_dependency` or `dependency_cycle`.
 */
export function parseManifest(manifest: unknown): ParsedManifest {
  let parsed: v.SafeParseResult<v.infer<ReturnType<typeof buildSchema>>>;
  try {
    const selections = isRecord(manifest) ? manifest.selections : undefined;
    if (Array.isArray(selections) && selections.length * SMALLEST_SELECTION_BYTES > CONTEXT_PACKET_LIMITS.maxManifestBytes) {
      throw tooLarge();
    }
    parsed = manifestSchema().safeParse(manifest);
  } catch (error) {
    if (ContextPacketError.isInstance(error)) throw error;
    throw invalid('The manifest could not be read (a property threw when read).', undefined, error);
  }
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const field = first === undefined ? undefined : first.path.map(String).join('.');
    throw invalid(`The manifest is invalid: ${formatIssues(parsed.error.issues)}`, field);
  }
  if (utf8ByteLength(JSON.stringify(parsed.data)) > CONTEXT_PACKET_LIMITS.maxManifestBytes) throw tooLarge();

  const indexById = new Map<string, number>();
  parsed.data.selections.forEach((selection, index) => {
    if (indexById.has(selection.id)) {
      throw invalid(`The manifest is invalid: the id ${quote(selection.id)} is used by two selections; ids must be unique.`, `selections.${index}.id`);
    }
    indexById.set(selection.id, index);
  });

  const selections = parsed.data.selections.map((selection, index): ParsedSelection => {
    const hasLines = selection.startLine !== undefined || selection.endLine !== undefined;
    const representation = selection.representation ?? (hasLines ? 'body' : 'whole');
    if (representation === 'whole' && hasLines) {
      throw invalid(`The manifest is invalid: selection ${quote(selection.id)} gives lines, which only the "body" representation takes.`, `selections.${index}.representation`);
    }
    if (selection.startLine !== undefined && selection.endLine !== undefined && selection.endLine < selection.startLine) {
      throw invalid(`The manifest is invalid: selection ${quote(selection.id)} ends (line ${selection.endLine}) before it starts (line ${selection.startLine}).`, `selections.${index}.endLine`);
    }
    const dependsOn: number[] = [];
    const seen = new Set<string>();
    for (const dependency of selection.dependsOn ?? []) {
      if (seen.has(dependency)) {
        throw invalid(`The manifest is invalid: selection ${quote(selection.id)} names ${quote(dependency)} twice in dependsOn.`, `selections.${index}.dependsOn`);
      }
      seen.add(dependency);
      const target = indexById.get(dependency);
      if (target === undefined) {
        throw new ContextPacketError(
          'unknown_dependency',
          `Selection ${quote(selection.id)} depends on ${quote(dependency)}, which is not a selection of the manifest.`,
          { id: selection.id, dependency },
        );
      }
      dependsOn.push(target);
    }
    return {
      index,
      id: selection.id,
      path: (normalizeSourcePath(selection.path) as { path: string }).path,
      required: selection.required ?? false,
      representation,
      startLine: selection.startLine,
      endLine: selection.endLine,
      dependsOn,
    };
  });
  return { selections, dependenciesFirst: dependencyOrder(selections) };
}

/**
 * Every index, each after all it depends on; throws `dependency_cycle` naming the first cycle
 * found (depth-first, iterative: no recursion limit).
 */
function dependencyOrder(selections: readonly ParsedSelection[]): number[] {
  const order: number[] = [];
  const state = new Uint8Array(selections.length); // 0 unvisited, 1 on the path, 2 done
  for (const start of selections) {
    if (state[start.index] !== 0) continue;
    const path: number[] = [start.index];
    const next: number[] = [0];
    state[start.index] = 1;
    while (path.length > 0) {
      const current = path.at(-1)!;
      const position = next.at(-1)!;
      const dependencies = selections[current]!.dependsOn;
      if (position >= dependencies.length) {
        state[current] = 2;
        order.push(current);
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = position + 1;
      const dependency = dependencies[position]!;
      if (state[dependency] === 1) {
        const cycle = [...path.slice(path.indexOf(dependency)), dependency].map((index) => selections[index]!.id);
        const shown = cycle.length > 12 ? [...cycle.slice(0, 6), `… ${cycle.length - 12} more …`, ...cycle.slice(-6)] : cycle;
        throw new ContextPacketError('dependency_cycle', `dependsOn goes round in a cycle: ${shown.map(quote).join(' → ')}.`, { cycle });
      }
      if (state[dependency] === 0) {
        state[dependency] = 1;
        path.push(dependency);
        next.push(0);
      }
    }
  }
  return order;
}

function tooLarge(): ContextPacketError {
  return invalid(`The manifest is over ${CONTEXT_PACKET_LIMITS.maxManifestBytes / 1024} KiB of JSON.`, 'selections');
}

function invalid(message: string, field: string | undefined, cause?: unknown): ContextPacketError {
  return new ContextPacketError('invalid_manifest', message.length > 600 ? `${message.slice(0, 600)}…` : message, { field }, { cause });
}

/** An id as messages show it: JSON-quoted, cut to 60 characters. */
export function quote(id: string): string {
  return JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
}
