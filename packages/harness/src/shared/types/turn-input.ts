import type { HarnessSteering } from './steering.js';
/** An attachment on the user's message. The harness forwards it; it never fetches `url`. */
export interface HarnessAttachment {
  id: string;
  type: string;
  name?: string | undefined;
  url?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** The user message that starts a turn. */
export interface HarnessUserMessage {
  id: string;
  text: string;
  /** ISO-8601 time the product received the message. */
  receivedAt: string;
  attachments?: HarnessAttachment[] | undefined;
}

/** How the assistant should answer. */
export interface HarnessResponseStyle {
  preferMarkdown?: boolean | undefined;
  maxAnswerChars?: number | undefined;
}

/** System and developer instructions for the turn. */
export interface HarnessInstructions {
  systemPrompt: string;
  developerPrompt?: string | undefined;
  responseStyle?: HarnessResponseStyle | undefined;
}

/** The fields every context block has, whichever way it spells its text. */
export interface HarnessContextBlockFields {
  id: string;
  label: string;
  importance?: 'low' | 'medium' | 'high' | undefined;
  source?: string | undefined;
}

/** A context block whose text is in `content` (when both are set, `content` wins). */
export interface HarnessContentContextBlock extends HarnessContextBlockFields {
  content: string;
  text?: string | undefined;
}

/** A context block whose text is in `text`, as the package README writes it. */
export interface HarnessTextContextBlock extends HarnessContextBlockFields {
  text: string;
  content?: string | undefined;
}

/**
 * One block of context the product prepared (memory, workspace facts, guardrails). Its text is
 * `content` or `text`; read it with `contextBlockText(block)`.
 */
export type HarnessContextBlock = HarnessContentContextBlock | HarnessTextContextBlock;

/** Context prepared by the product before the turn. */
export interface HarnessPreparedContext {
  blocks: HarnessContextBlock[];
  structured?: Record<string, unknown> | undefined;
}

/** Everything a turn needs. Validated by `runTurn`; a bad shape throws `HarnessConfigError`. */
export interface HarnessTurnInput {
  assistantId: string;
  turnId: string;
  message: HarnessUserMessage;
  instructions: HarnessInstructions;
  workspaceId?: string | undefined;
  sessionId?: string | undefined;
  userId?: string | undefined;
  threadId?: string | undefined;
  context?: HarnessPreparedContext | undefined;
  /**
   * When given, only these tools are offered to the model and only these may run,
   * whatever the registry lists. An empty array means no tools.
   */
  allowedToolNames?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Per-call options of `runTurn`, `streamTurn` and `resumeTurn`. */
export interface HarnessRunOptions {
  /** Aborting it ends the turn promptly as `deferred` / `cancelled` with a continuation. */
  signal?: AbortSignal | undefined;
  /** User input added while the turn runs; see `createSteering()`. */
  steering?: HarnessSteering | undefined;
}
