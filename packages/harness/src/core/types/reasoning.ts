/**
 * Reasoning a model produced in a step, kept in the transcript (and continuations) so the provider
 * can replay it in later steps as its API requires. Opaque fields go back unchanged.
 */
export interface HarnessReasoningPart {
  /** The protocol that produced it (`'anthropic'`, `'openai-responses'`, `'gemini'` …); providers replay only their own. */
  provider: string;
  /** The reasoning text or summary, when the provider shows it. */
  text?: string | undefined;
  /** Opaque signature to send back with it (Anthropic `signature`, Gemini `thoughtSignature`). */
  signature?: string | undefined;
  /** Opaque hidden reasoning (Anthropic `redacted_thinking` data, Responses `encrypted_content`). */
  data?: string | undefined;
  /** The provider's id of the reasoning item (Responses). */
  id?: string | undefined;
}
