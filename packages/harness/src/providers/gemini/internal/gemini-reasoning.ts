import type { HarnessReasoningPart } from '../../../core/types/reasoning.js';

/** The `provider` of the reasoning parts this adapter writes and replays. */
export const GEMINI_PROVIDER = 'gemini';

/** The reasoning-part id of the signature of a function call (`functionCall:<call id>`). */
export function callPartId(callId: string): string {
  return `functionCall:${callId}`;
}

/** The reasoning-part id of the signature Gemini put on the answer text. */
export const TEXT_PART_ID = 'text';

/** The start of a call id this adapter made up (Gemini gave none, or one holding a secret); such ids are never sent to Gemini. */
export const LOCAL_CALL_ID_PREFIX = 'gemini_local_';

/** A fresh local call id. */
export function localCallId(): string {
  return `${LOCAL_CALL_ID_PREFIX}${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** Whether a call id came from Gemini (and goes back on the call and its response). */
export function isGeminiCallId(id: string): boolean {
  return !id.startsWith(LOCAL_CALL_ID_PREFIX);
}

/** What a replayed model content needs from the step's reasoning parts. */
export interface GeminiStepSignatures {
  /** Whether the step has Gemini reasoning parts at all (it was produced by this adapter). */
  known: boolean;
  /** The signature of a call's part, by call id. */
  call(callId: string): string | undefined;
  /** The signature of the text part. */
  text: string | undefined;
}

/** Reads the `gemini` reasoning parts of a step (others are ignored). */
export function readGeminiSignatures(reasoning: readonly HarnessReasoningPart[]): GeminiStepSignatures {
  const signatures = new Map<string, string>();
  let known = false;
  for (const part of reasoning) {
    if (part.provider !== GEMINI_PROVIDER) continue;
    known = true;
    if (part.id !== undefined && part.signature !== undefined) signatures.set(part.id, part.signature);
  }
  return { known, call: (callId) => signatures.get(callPartId(callId)), text: signatures.get(TEXT_PART_ID) };
}
