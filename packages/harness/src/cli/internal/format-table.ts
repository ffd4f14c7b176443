import { displayWidth, padEndToWidth } from './display-width.js';
import { terminalText } from './terminal-text.js';

/** Outside text on one table cell: control characters escaped, so a value cannot break lines. */
const cell = (text: string) => terminalText(text);

/**
 * A plain-text table with columns padded to the widest cell in terminal columns (a CJK character
 * or an emoji takes two, a combining mark none), one line per row, ending in a newline.
 */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [headers, ...rows].map((row) => row.map(cell));
  const widths = headers.map((_, column) => lines.reduce((widest, row) => Math.max(widest, displayWidth(row[column] ?? '')), 0));
  return (
    lines
      .map((row) => row.map((text, column) => (column === row.length - 1 ? text : padEndToWidth(text, widths[column] ?? 0))).join('  '))
      .join('\n') + '\n'
  );
}
