/**
 * Why a provider stopped generating, mapped from its own wire value (kept as `rawFinishReason`):
 * `stop` (a natural end), `length` (token limit), `tool_calls`, `content_filter`, `refusal`,
 * `error` (the provider failed mid-generation) or `other` (anything unknown or absent).
 */
export type ModelFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'refusal' | 'error' | 'other';
