import type { ContextPacketSource } from '../context-packet-types.js';
import type { ParsedSelection } from './parse-manifest.js';
import type { SourceFile } from './read-source-files.js';

/**
 * What a selection takes of its file: the whole file, or the lines of its range (clamped to the
 * file, the real range reported), or `binary` for the lines of a file that is not text. Lines end
 * at `\n` and keep it (`\r\n` stays whole); a final line ending does not start another line.
 */
export function takeSource(selection: ParsedSelection, file: Extract<SourceFile, { ok: true }>): ContextPacketSource | 'binary' {
  const base = { id: selection.id, path: selection.path, representation: selection.representation, sha256: file.sha256, size: file.size };
  if (file.text === undefined) {
    if (selection.representation === 'body') return 'binary';
    return { ...base, encoding: 'base64', content: file.base64 ?? '' };
  }
  const text = file.text;
  const totalLines = countLines(text);
  const requestedStart = selection.startLine ?? 1;
  const requestedEnd = selection.endLine ?? totalLines;
  const startLine = Math.min(requestedStart, totalLines + 1);
  const endLine = Math.max(startLine - 1, Math.min(requestedEnd, totalLines));
  const clamped = requestedStart > totalLines + (selection.startLine === undefined ? 1 : 0) || requestedEnd > totalLines;
  const content = selection.representation === 'whole' ? text : text.slice(lineOffset(text, startLine), lineOffset(text, endLine + 1));
  return { ...base, encoding: 'utf-8', startLine, endLine, totalLines, ...(clamped ? { clamped: true as const } : {}), content };
}

function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** Where line `line` (1-based) starts; the text's length for a line past the end. */
function lineOffset(text: string, line: number): number {
  let offset = 0;
  for (let current = 1; current < line; current += 1) {
    const end = text.indexOf('\n', offset);
    if (end === -1) return text.length;
    offset = end + 1;
  }
  return offset;
}
