/** An attachment on the user's message. The harness forwards it; it never fetches `url`. */
export interface HarnessAttachment {
  id: string;
  type: string;
  name?: string;
  url?: string;
  metadata?: Record<string, unknown>;
}

/** The user message that starts a turn. */
export interface HarnessUserMessage {
  id: string;
  text: string;
  /** ISO-8601 time the product received the message. */
  receivedAt: string;
  attachments?: HarnessAttachment[];
}

/** How the assistant should answer. */
export interface HarnessResponseStyle {
  preferMarkdown?: boolean;
  maxAnswerChars?: number;
}

/** System and developer instructions for the turn. */
export interface HarnessInstructions {
  systemPrompt: string;
  developerPrompt?: string;
  responseStyle?: HarnessResponseStyle;
}

/** The fields every context block has, whichever way it spells its text. */
export interface HarnessContextBlockFields {
  id: string;
  label: string;
  importance?: 'low' | 'medium' | 'high';
  source?: string;
}

/** A context block whose text is in `content` (when both are set, `content` wins). */
export interface HarnessContentContextBlock extends HarnessContextBlockFields {
  content: string;
  text?: string;
}

/** A context block whose text is in `text`, as the package README writes it. */
export interface HarnessTextContextBlock extends HarnessContextBlockFields {
  text: string;
  content?: string;
}

/**
 * One block of context the product prepared (memory, workspace facts, guardrails). Its text is
 * `content` or `text`; read it with `contextBlockText(block)`.
 */
export type HarnessContextBlock = HarnessContentContextBlock | HarnessTextContextBlock;

/** Context prepared by the product before the turn. */
export interface HarnessPreparedContext {
  blocks: HarnessContextBlock[];
  structured?: Record<string, unknown>;
}

/** Everything a turn needs. Validated by `runTurn`; a bad shape throws `HarnessConfigError`. */
export interface HarnessTurnInput {
  assistantId: string;
  turnId: string;
  message: HarnessUserMessage;
  instructions: HarnessInstructions;
  workspaceId?: string;
  sessionId?: string;
  userId?: string;
  threadId?: string;
  context?: HarnessPreparedContext;
  /**
   * When given, only these tools are offered to the model and only these may run,
   * whatever the registry lists. An empty array means no tools.
   */
  allowedToolNames?: string[];
  metadata?: Record<string, unknown>;
}

/** Per-call options of `runTurn`, `streamTurn` and `resumeTurn`. */
export interface HarnessRunOptions {
  /** Aborting it ends the turn promptly as `deferred` / `cancelled` with a continuation. */
  signal?: AbortSignal;
}
