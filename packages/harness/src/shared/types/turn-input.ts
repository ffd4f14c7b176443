import type { HarnessOutputSchema } from './schema.js';
import type { HarnessSteering } from './steering.js';
/**
 * An image or file on a message, by `url` or inline `data`. The harness never fetches `url`: the
 * provider is handed the address. Providers send images as image parts and other files as
 * document/file parts where the API takes them; an attachment a provider or model cannot take ends
 * the turn `failed` with error code `attachments_unsupported` — it is never silently dropped.
 */
export interface HarnessAttachment {
  id: string;
  /** What it is: `'image'`, `'file'` or a product's own kind (`mediaType` decides when it is set). */
  type: string;
  name?: string | undefined;
  /** Where the provider can read it (`https:` or a `data:` URL). */
  url?: string | undefined;
  /** Inline content, base64-encoded (no `data:` prefix). Needs `mediaType`. */
  data?: string | undefined;
  /** IANA media type, e.g. `image/png` or `application/pdf`. */
  mediaType?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** One earlier message of the conversation, replayed to the model as a real role message. */
export interface HarnessHistoryMessage {
  role: 'user' | 'assistant';
  text: string;
  attachments?: HarnessAttachment[] | undefined;
  /** Kept word for word when the conversation is compacted (never folded into the summary). */
  pinned?: boolean | undefined;
}

/**
 * Whether and which tool the model must call: `'auto'` (it decides), `'none'` (no tool),
 * `'required'` (some tool) or `{ name }` (that tool).
 */
export type HarnessToolChoice = 'auto' | 'none' | 'required' | { name: string };

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
   * The conversation before `message`, oldest first. Replayed as role messages by every provider,
   * passed to backends as `ExecutionRequest.history`, counted by the input budget.
   */
  history?: HarnessHistoryMessage[] | undefined;
  /** The tool choice of every model step of the turn (a `prepareStep` hook may change it per step). @default 'auto' */
  toolChoice?: HarnessToolChoice | undefined;
  /**
   * When given, only these tools are offered to the model and only these may run,
   * whatever the registry lists. An empty array means no tools.
   */
  allowedToolNames?: string[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Per-call options of `runTurn`, `streamTurn` and `resumeTurn`. */
export interface HarnessRunOptions<TOutputSchema extends HarnessOutputSchema | undefined = HarnessOutputSchema | undefined> {
  /** Aborting it ends the turn promptly as `deferred` / `cancelled` with a continuation. */
  signal?: AbortSignal | undefined;
  /** User input added while the turn runs; see `createSteering()`. */
  steering?: HarnessSteering | undefined;
  /**
   * The schema of this turn's structured final answer, replacing `createHarness({ output })` for
   * this turn: `result.output` is then typed from it. A bad schema throws `HarnessConfigError`
   * naming `output`. See docs/structured-output.md.
   * @default the harness's `output`
   */
  output?: TOutputSchema;
}
