import type { HarnessToolDefinition } from '../../shared/types/tools.js';
import { isRecord } from '../../shared/is-record.js';

/**
 * Reads what `listAvailable` returned into fresh definitions, each field read exactly once, so a
 * getter cannot answer one way when the loop checks a tool and another way when it runs it.
 * Entries that are not objects with a non-empty string `name` are dropped, as are tools outside
 * `allowedToolNames` and later duplicates of a name (the first definition of a name counts). A
 * truthy `requiresApproval` that is not a function counts as `true`.
 *
 * @throws Error when the value is not an array; whatever a hostile getter throws propagates (the
 * loop turns it into `failed` / `runtime_error`).
 */
export function readToolDefinitions(listed: unknown, allowedToolNames: readonly string[] | undefined): HarnessToolDefinition[] {
  if (!Array.isArray(listed)) throw new Error('listAvailable did not return an array of tool definitions.');
  const allowed = allowedToolNames === undefined ? undefined : new Set(allowedToolNames);
  const byName = new Map<string, HarnessToolDefinition>();
  for (const entry of listed as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const definition = entry as Partial<Record<keyof HarnessToolDefinition, unknown>>;
    const name = definition.name;
    if (typeof name !== 'string' || name === '' || byName.has(name) || !(allowed?.has(name) ?? true)) continue;
    byName.set(name, snapshot(name, definition));
  }
  return [...byName.values()];
}

function snapshot(name: string, definition: Partial<Record<keyof HarnessToolDefinition, unknown>>): HarnessToolDefinition {
  const { description, inputSchema, requiresApproval, metadata } = definition;
  // Fields set one by one in this order (not spreads of literals: that was most of a tool listing).
  const copy: HarnessToolDefinition = { name };
  if (typeof description === 'string') copy.description = description;
  if (isRecord(inputSchema)) copy.inputSchema = inputSchema;
  // Fails closed: any truthy value that is not a rule (say `'yes'` from untyped code) means `true`.
  if (typeof requiresApproval === 'function') copy.requiresApproval = requiresApproval as HarnessToolDefinition['requiresApproval'];
  else if (requiresApproval) copy.requiresApproval = true;
  if (isRecord(metadata)) copy.metadata = metadata;
  return copy;
}
