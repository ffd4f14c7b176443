import type { HarnessTranscriptItem } from '../types/transcript.js';

const TRUNCATION_MARK = ' …[truncated]';

/**
 * Shortens tool outputs in a transcript until its JSON fits `maxBytes` (approximately: UTF-16
 * length is used as the measure, which never undercounts ASCII). Newest results keep the most.
 */
export function fitTranscript(transcript: HarnessTranscriptItem[], maxBytes: number): HarnessTranscriptItem[] {
  if (JSON.stringify(transcript).length <= maxBytes) return transcript;
  for (const keep of [4096, 1024, 256, 64, 0]) {
    const shortened = transcript.map((item) => shortenItem(item, keep));
    if (JSON.stringify(shortened).length <= maxBytes) return shortened;
  }
  return transcript.map((item) => shortenItem(item, 0));
}

function shortenItem(item: HarnessTranscriptItem, keep: number): HarnessTranscriptItem {
  if (item.type !== 'tool_result') return item;
  const { output, structuredOutput, ...rest } = item.result;
  const result = { ...rest } as typeof item.result;
  if (output !== undefined) result.output = output.length > keep ? output.slice(0, keep) + TRUNCATION_MARK : output;
  if (structuredOutput !== undefined && JSON.stringify(structuredOutput).length <= keep) {
    result.structuredOutput = structuredOutput;
  } else if (structuredOutput !== undefined && output === undefined) {
    result.output = JSON.stringify(structuredOutput).slice(0, keep) + TRUNCATION_MARK;
  }
  return { ...item, result };
}
