import { utf8ByteLength } from '../../../core/continuation/utf8-byte-length.js';
import { displaySafeJson } from '../../../shared/display-safe-json.js';
import { ContextPacketError } from '../context-packet-error.js';
import type { ContextPacket, ContextPacketOmission, ContextPacketSource } from '../context-packet-types.js';
import { quote, type ParsedSelection } from './parse-manifest.js';

/** A selection ready to be fitted: its entry in `sources` (when it can be taken) and in `omitted`. */
export interface Candidate {
  selection: ParsedSelection;
  /** Absent when the file cannot be taken. */
  source: ContextPacketSource | undefined;
  /** Its omission: the reason it cannot be taken, else `over_budget` (used when it does not fit). */
  omission: ContextPacketOmission;
}

/** A candidate with its serialised entries and their sizes. */
interface Sized {
  candidate: Candidate;
  available: boolean;
  /** Absent when the entry alone is over the budget (it can never be taken). */
  sourceText: string | undefined;
  sourceBytes: number;
  omissionText: string;
  omissionBytes: number;
}

/** The packet as text and data. */
export interface FittedPacket {
  packet: ContextPacket;
  text: string;
  bytes: number;
  /** The candidates taken, in manifest order. */
  taken: Candidate[];
}

/** One JSON value as it appears in a packet's text. */
export function packetJson(value: unknown): string {
  return displaySafeJson(JSON.stringify(value));
}

/** The packet's text around its entries. */
const frame = (complete: boolean, sources: string, omitted: string) => `{"complete":${String(complete)},"sources":[${sources}],"omitted":[${omitted}]}\n`;

const commas = (count: number) => Math.max(0, count - 1);
/** For walks that take nothing into account (indexing past its end reads `undefined`). */
const NOTHING_TAKEN = /* @__PURE__ */ new Uint8Array(0);

/**
 * Chooses what the packet takes: the required selections and everything they depend on, then
 * each other selection in order, with what it depends on, while the whole text stays within the
 * budget. Every size is exact (each entry is serialised once and measured), so "fits" means the
 * final text fits.
 * @throws ContextPacketError `required_unavailable` or `over_budget`; nothing partial.
 */
export function fitPacket(candidates: readonly Candidate[], dependenciesFirst: readonly number[], budget: number): FittedPacket {
  const sized = candidates.map((candidate) => size(candidate, budget));
  propagateUnavailable(sized, dependenciesFirst);
  const taken = new Uint8Array(sized.length);
  let sourceCount = 0;
  let sourceBytes = 0;
  let omittedCount = sized.length;
  let omittedBytes = sized.reduce((sum, item) => sum + item.omissionBytes, 0);
  const total = (sources: number, sourceSum: number, omitted: number, omittedSum: number) =>
    frame(omitted === 0, '', '').length + sourceSum + commas(sources) + omittedSum + commas(omitted);
  const take = (group: readonly number[]) => {
    for (const index of group) {
      taken[index] = 1;
      sourceBytes += sized[index]!.sourceBytes;
      omittedBytes -= sized[index]!.omissionBytes;
    }
    sourceCount += group.length;
    omittedCount -= group.length;
  };

  const required = requiredClosure(sized);
  refuseUnavailable(sized);
  const needed = required.reduce(
    (sum, index) => sum + sized[index]!.sourceBytes - sized[index]!.omissionBytes,
    total(required.length, 0, omittedCount - required.length, omittedBytes),
  );
  if (needed > budget) throw overBudget(sized, required, needed, budget, total);
  take(required);

  for (const item of sized) {
    const index = item.candidate.selection.index;
    if (taken[index] === 1 || !item.available) continue;
    const group = closure(sized, [index], taken);
    let groupSources = 0;
    let groupOmissions = 0;
    for (const member of group) {
      groupSources += sized[member]!.sourceBytes;
      groupOmissions += sized[member]!.omissionBytes;
    }
    const after = total(sourceCount + group.length, sourceBytes + groupSources, omittedCount - group.length, omittedBytes - groupOmissions);
    if (after <= budget) take(group);
  }
  return assemble(sized, taken, budget, total(sourceCount, sourceBytes, omittedCount, omittedBytes));
}

function size(candidate: Candidate, budget: number): Sized {
  const omissionText = packetJson(candidate.omission);
  const sourceText = candidate.source === undefined ? undefined : packetJson(candidate.source);
  const sourceBytes = sourceText === undefined ? 0 : utf8ByteLength(sourceText);
  return {
    candidate,
    available: sourceText !== undefined,
    sourceText: sourceBytes > budget ? undefined : sourceText,
    sourceBytes,
    omissionText,
    omissionBytes: utf8ByteLength(omissionText),
  };
}

/** A selection that depends on one that cannot be taken cannot be taken either (`dependency_unavailable`). */
function propagateUnavailable(sized: Sized[], dependenciesFirst: readonly number[]): void {
  for (const index of dependenciesFirst) {
    const item = sized[index]!;
    if (!item.available) continue;
    const missing = item.candidate.selection.dependsOn.find((dependency) => !sized[dependency]!.available);
    if (missing === undefined) continue;
    const { id, path } = item.candidate.selection;
    const omission: ContextPacketOmission = { id, path, reason: 'dependency_unavailable', dependency: sized[missing]!.candidate.selection.id };
    sized[index] = size({ ...item.candidate, source: undefined, omission }, Number.POSITIVE_INFINITY);
  }
}

/** The required selections and everything they depend on, in manifest order. */
function requiredClosure(sized: readonly Sized[]): number[] {
  const roots = sized.filter((item) => item.candidate.selection.required).map((item) => item.candidate.selection.index);
  return closure(sized, roots, NOTHING_TAKEN);
}

/** Marks of one walk: a walk's number per index, so no array is cleared or made per walk. */
const walks = new WeakMap<readonly Sized[], { marks: Uint32Array; walk: number }>();

/** `roots` and everything they depend on that is not `taken` yet, in manifest order. */
function closure(sized: readonly Sized[], roots: readonly number[], taken: Uint8Array): number[] {
  let state = walks.get(sized);
  if (state === undefined) walks.set(sized, (state = { marks: new Uint32Array(sized.length), walk: 0 }));
  const walk = (state.walk += 1);
  const { marks } = state;
  const stack: number[] = [];
  for (const root of roots) {
    if (taken[root] === 1 || marks[root] === walk) continue;
    marks[root] = walk;
    stack.push(root);
  }
  const members: number[] = [];
  while (stack.length > 0) {
    const index = stack.pop()!;
    members.push(index);
    for (const dependency of sized[index]!.candidate.selection.dependsOn) {
      if (marks[dependency] === walk || taken[dependency] === 1) continue;
      marks[dependency] = walk;
      stack.push(dependency);
    }
  }
  return members.sort((left, right) => left - right);
}

/** Throws `required_unavailable` for the first required selection that cannot be taken, naming the root cause. */
function refuseUnavailable(sized: readonly Sized[]): void {
  for (const root of sized.filter((item) => item.candidate.selection.required)) {
    const rootIndex = root.candidate.selection.index;
    const blocked = closure(sized, [rootIndex], NOTHING_TAKEN).find((index) => !sized[index]!.available);
    if (blocked === undefined) continue;
    let cause = sized[blocked]!.candidate;
    while (cause.omission.reason === 'dependency_unavailable') {
      const dependency = cause.omission.dependency;
      cause = sized.find((item) => item.candidate.selection.id === dependency)!.candidate;
    }
    const { id, path } = cause.selection;
    const requiredBy = root.candidate.selection.id;
    const who = id === requiredBy ? `Required selection ${quote(id)}` : `Selection ${quote(id)}, which required selection ${quote(requiredBy)} depends on,`;
    throw new ContextPacketError('required_unavailable', `${who} cannot be taken: ${path} is ${describeReason(cause.omission.reason)}.`, {
      id,
      path,
      cause: cause.omission.reason,
      ...(id === requiredBy ? {} : { requiredBy }),
    });
  }
}

function describeReason(reason: string): string {
  switch (reason) {
    case 'not_found':
      return 'not found';
    case 'not_a_file':
      return 'not a regular file';
    case 'outside_root':
      return 'outside the root';
    case 'invalid_path':
      return 'a path the VFS refuses';
    case 'too_large':
      return 'too large (over maxFileBytes, or longer than the VFS reads whole)';
    case 'read_limit':
      return 'past maxTotalBytes of reading';
    case 'binary':
      return 'not text, so its lines cannot be taken';
    default:
      return 'unreadable';
  }
}

/** The `over_budget` error: which required selection first passes the budget, and by how much they all do. */
function overBudget(
  sized: readonly Sized[],
  required: readonly number[],
  needed: number,
  budget: number,
  total: (sources: number, sourceSum: number, omitted: number, omittedSum: number) => number,
): ContextPacketError {
  let sources = 0;
  let sourceSum = 0;
  let omitted = sized.length;
  let omittedSum = sized.reduce((sum, item) => sum + item.omissionBytes, 0);
  const floor = total(sources, sourceSum, omitted, omittedSum);
  let first: Sized | undefined;
  for (const index of floor > budget ? [] : required) {
    const item = sized[index]!;
    sources += 1;
    sourceSum += item.sourceBytes;
    omitted -= 1;
    omittedSum -= item.omissionBytes;
    if (total(sources, sourceSum, omitted, omittedSum) > budget) {
      first = item;
      break;
    }
  }
  const overBy = needed - budget;
  const details = { neededBytes: needed, budget, overBy };
  if (required.length === 0) {
    return new ContextPacketError(
      'over_budget',
      `The packet does not fit in ${budget} bytes even without any source: listing the ${sized.length} selections as omitted takes ${needed} bytes (${overBy} over).`,
      details,
    );
  }
  const head = `The required selections do not fit in ${budget} bytes: with what they depend on they need ${needed} bytes (${overBy} over)`;
  if (first === undefined) {
    return new ContextPacketError('over_budget', `${head}; listing the ${sized.length} selections as omitted alone takes ${floor} bytes.`, details);
  }
  const { id, path } = first.candidate.selection;
  return new ContextPacketError('over_budget', `${head}; ${quote(id)} (${path}) is the first that passes the budget.`, { id, path, ...details });
}

/** The packet's text, written from the measured entries, and the same packet as data. */
function assemble(sized: readonly Sized[], taken: Uint8Array, budget: number, expected: number): FittedPacket {
  const sourceTexts: string[] = [];
  const omittedTexts: string[] = [];
  const sources: ContextPacketSource[] = [];
  const omitted: ContextPacketOmission[] = [];
  const takenCandidates: Candidate[] = [];
  for (const item of sized) {
    if (taken[item.candidate.selection.index] === 1) {
      sourceTexts.push(item.sourceText!);
      sources.push(item.candidate.source!);
      takenCandidates.push(item.candidate);
    } else {
      omittedTexts.push(item.omissionText);
      omitted.push(item.candidate.omission);
    }
  }
  const complete = omitted.length === 0;
  const text = frame(complete, sourceTexts.join(','), omittedTexts.join(','));
  const bytes = utf8ByteLength(text);
  if (bytes !== expected || bytes > budget) throw new Error(`context packet: measured ${bytes} bytes, expected ${expected} within ${budget}`);
  return { packet: { complete, sources, omitted }, text, bytes, taken: takenCandidates };
}
