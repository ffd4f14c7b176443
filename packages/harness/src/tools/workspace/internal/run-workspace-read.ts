import type { HarnessToolResult } from '../../../shared/types/tools.js';
import { fileFacts, readWorkspaceFile } from './read-workspace-file.js';
import { utf8Window } from '../../../shared/utf8-bytes.js';
import { errorResult, invalidInputResult, successResult } from './workspace-results.js';
import type { WorkspaceRunContext } from './workspace-run-context.js';

/**
 * Runs `workspace_read`: at most `maxReadBytes` of text from `offset`, cut on character
 * boundaries. A longer file is truncated *partially* — the first bytes are kept, with
 * `truncated: true`, the total `size` and the `nextOffset` to continue from.
 */
export async function runWorkspaceRead(context: WorkspaceRunContext, sourcePath: string): Promise<HarnessToolResult> {
  const { call, input, options } = context;
  const offset = (input.offset as number | undefined) ?? 0;
  const read = await readWorkspaceFile(context, sourcePath);
  if ('failure' in read) return read.failure;
  const { file } = read;
  const facts = fileFacts(file);

  if (file.encoding === 'base64') {
    const size = typeof file.size === 'number' ? `${file.size} bytes` : 'size unknown';
    const type = typeof file.contentType === 'string' ? `, ${file.contentType}` : '';
    return successResult(call, `${sourcePath} is a binary file (${size}${type}); its content cannot be shown as text.`, {
      sourcePath,
      ...facts,
      binary: true,
      ...(typeof file.size === 'number' ? { size: file.size } : {}),
      truncated: false,
    });
  }

  const window = utf8Window(file.content, offset, options.maxReadBytes);
  const available = window.total;
  const size = Math.max(typeof file.size === 'number' ? file.size : available, available);
  if (offset > 0 && offset >= available) {
    if (offset < size) {
      return errorResult(
        call,
        'range_unavailable',
        `The workspace returns only the first ${available} of the ${size} bytes of ${sourcePath}; bytes from offset ${offset} cannot be read.`,
        { retryable: true, sourcePath, metadata: { size, readableBytes: available } },
      );
    }
    if (offset > size) return invalidInputResult(call, 'offset', `"offset" ${offset} is past the end of ${sourcePath} (${size} bytes).`);
  }

  const truncated = window.end < size;
  const nextOffset = window.end < available ? window.end : undefined;
  let output = window.text;
  if (size === 0) output = `${sourcePath} is an empty file (0 bytes).`;
  else if (window.start === window.end) output = `No bytes left: offset ${offset} is the end of ${sourcePath} (${size} bytes).`;
  else if (nextOffset !== undefined) {
    output += `\n\n[Truncated: bytes ${window.start}–${window.end} of ${size} of ${sourcePath}. Call workspace_read with offset ${nextOffset} for the rest.]`;
  } else if (truncated) {
    output += `\n\n[Truncated: the workspace returns only the first ${available} of the ${size} bytes of ${sourcePath}; the rest cannot be read.]`;
  } else if (window.start > 0) {
    output += `\n\n[Bytes ${window.start}–${window.end} of ${size}: the end of ${sourcePath}.]`;
  }
  return successResult(call, output, {
    sourcePath,
    ...facts,
    encoding: 'utf-8',
    offset: window.start,
    bytes: window.end - window.start,
    size,
    truncated,
    ...(nextOffset === undefined ? {} : { nextOffset }),
    empty: size === 0,
  });
}
