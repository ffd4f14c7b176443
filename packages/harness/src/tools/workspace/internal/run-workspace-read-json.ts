import type { HarnessToolResult } from '../../../shared/types/tools.js';
import { locateJsonError } from './locate-json-error.js';
import { fileFacts, readWorkspaceFile } from './read-workspace-file.js';
import { utf8Length, utf8Window } from '../../../shared/utf8-bytes.js';
import { errorResult, successResult } from './workspace-results.js';
import type { WorkspaceRunContext } from './workspace-run-context.js';
import { describeError } from '../../../shared/describe-error.js';

/**
 * Runs `workspace_read_json`: parses files up to `maxReadBytes`; invalid JSON is a retryable
 * `invalid_json` error naming the line, column and reason; larger files are `too_large`.
 */
export async function runWorkspaceReadJson(context: WorkspaceRunContext, sourcePath: string): Promise<HarnessToolResult> {
  const { call, options } = context;
  const read = await readWorkspaceFile(context, sourcePath);
  if ('failure' in read) return read.failure;
  const { file } = read;
  if (file.encoding === 'base64') {
    return errorResult(call, 'invalid_json', `${sourcePath} is a binary file, not JSON text.`, { retryable: true, sourcePath });
  }
  const bytes = utf8Length(file.content);
  const size = Math.max(typeof file.size === 'number' ? file.size : bytes, bytes);
  if (file.truncated === true || size > options.maxReadBytes) {
    return errorResult(
      call,
      'too_large',
      `${sourcePath} is ${size} bytes, more than the ${options.maxReadBytes} bytes workspace_read_json parses. ` +
        'Read it in parts with workspace_read (using offset) instead.',
      { retryable: true, sourcePath, metadata: { size, maxReadBytes: options.maxReadBytes } },
    );
  }
  const text = file.content.startsWith('\uFEFF') ? file.content.slice(1) : file.content;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return invalidJson(context, sourcePath, text, error);
  }
  let output = JSON.stringify(json, null, 2);
  if (output.length > options.maxReadBytes) output = JSON.stringify(json);
  const window = utf8Window(output, 0, options.maxReadBytes);
  const outputTruncated = window.end < window.total;
  if (outputTruncated) output = `${window.text}\n\n[Output truncated at ${window.end} of ${window.total} bytes; structuredOutput.json holds the whole value.]`;
  return successResult(call, output, { sourcePath, ...fileFacts(file), json, size, truncated: outputTruncated });
}

function invalidJson(context: WorkspaceRunContext, sourcePath: string, text: string, error: unknown): HarnessToolResult {
  const location = locateJsonError(text);
  if (location === undefined) {
    const reason = describeError(error);
    return errorResult(context.call, 'invalid_json', `${sourcePath} is not valid JSON: ${reason}`, { retryable: true, sourcePath });
  }
  const near = JSON.stringify(text.slice(Math.max(0, location.position - 20), location.position + 20));
  return errorResult(
    context.call,
    'invalid_json',
    `${sourcePath} is not valid JSON: ${location.reason} at line ${location.line}, column ${location.column} (near ${near}). ` +
      'Read it with workspace_read to see the raw text.',
    {
      retryable: true,
      sourcePath,
      metadata: { line: location.line, column: location.column, position: location.position, reason: location.reason },
    },
  );
}
