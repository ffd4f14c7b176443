import { terminalText } from './terminal-text.js';

/** Outside text on one table cell: control characters escaped, so a value cannot break lines. */
const cell = (text: string) => terminalText(text);

/** A plain-text table with padded columns, one line per row, ending in a newline. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [headers, ...rows].map((row) => row.map(cell));
  const widths = headers.map((_, column) => lines.reduce((widest, row) => Math.max(widest, (row[column] ?? '').length), 0));
  return (
    lines
      .map((row) => row.map((text, column) => (column === row.length - 1 ? text : text.padEnd(widths[column] ?? 0))).join('  '))
      .join('\n') + '\n'
  );
}
