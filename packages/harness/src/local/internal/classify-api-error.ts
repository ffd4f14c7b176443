import { isRecord } from '../../shared/is-record.js';
/** Whether an HTTP status from a model API is worth retrying (408, 409, 425, 429, 5xx). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || status >= 500;
}

const transientPattern = /timed? ?out|timeout|rate.?limit|overloaded|temporar|unavailable|reconnect|disconnect|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|network|socket hang up/i;

/**
 * The HTTP status an error message carries — as JSON (`{"error":{"code":400}}`, `"status":429`)
 * or as text (`status 503`, `API Error: 400`) — if any.
 */
export function statusFromMessage(message: string): number | undefined {
  const fromJson = statusFromJson(message);
  if (fromJson !== undefined) return fromJson;
  const match = /(?:status(?: code)?|API Error|HTTP)[^\d]{0,3}([1-5]\d\d)\b/i.exec(message);
  return match === null ? undefined : Number(match[1]);
}

/** Retryable when the status says so; without a status, when the message sounds transient. */
export function isRetryableMessage(message: string, status = statusFromMessage(message)): boolean {
  return status === undefined ? transientPattern.test(message) : isRetryableStatus(status);
}

/** The innermost human message of an error string that may be JSON (`{"error":{"message":…}}`). */
export function innerMessage(message: string): string {
  const parsed = tryJson(message);
  const error = isRecord(parsed) && isRecord(parsed['error']) ? parsed['error'] : parsed;
  return isRecord(error) && typeof error['message'] === 'string' ? error['message'] : message;
}

function statusFromJson(message: string): number | undefined {
  const parsed = tryJson(message);
  if (!isRecord(parsed)) return undefined;
  for (const candidate of [parsed, parsed['error']]) {
    if (!isRecord(candidate)) continue;
    for (const key of ['status', 'code', 'statusCode']) {
      const value = candidate[key];
      if (typeof value === 'number' && value >= 100 && value <= 599) return value;
    }
  }
  return undefined;
}

function tryJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

