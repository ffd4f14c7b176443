import * as z from '../../shared/validation/index.js';
import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';
import type { HarnessContinuation } from '../../core/types/continuation.js';
import { usageError } from './cli-usage-error.js';
import { runSettingsSchema, type RunSettings } from './run-settings.js';

/** What `--continuation-out` writes: the signed continuation and how to run it again. */
export interface ContinuationFile {
  format: 'agent-assistant-continuation';
  version: 1;
  settings: RunSettings;
  /** The harness's continuation, as signed; `resumeTurn` verifies it. */
  continuation: unknown;
}

const MAX_FILE_BYTES = 4 * 1024 * 1024;

const fileSchema = /* @__PURE__ */ lazySchema(() =>
  z.object({
    format: z.literal('agent-assistant-continuation'),
    version: z.literal(1),
    settings: z.unknown(),
    continuation: z.unknown(),
  }),
);

/** Writes the continuation file atomically (a temporary file, then a rename), readable by the owner only. */
export async function writeContinuationFile(path: string, settings: RunSettings, continuation: HarnessContinuation): Promise<void> {
  const file: ContinuationFile = {
    format: 'agent-assistant-continuation',
    version: 1,
    settings,
    continuation,
  };
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, {
    mode: 0o600,
  });
  await rename(temporary, path);
}

/**
 * Reads and checks a continuation file. The continuation itself is checked by `resumeTurn`
 * (signature, expiry, shape); here only the envelope and the settings.
 * @throws HarnessConfigError (a usage error) saying what is wrong with the file.
 */
export async function readContinuationFile(path: string): Promise<ContinuationFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw usageError(
      `Cannot read the continuation file ${JSON.stringify(path)} (${String(
        code ?? 'error',
      )}). Pass the file \`run --continuation-out\` wrote.`,
      'continuation',
    );
  }
  if (text.length > MAX_FILE_BYTES)
    throw usageError(
      `The continuation file ${JSON.stringify(path)} is larger than 4 MiB; it is not one \`run --continuation-out\` wrote.`,
      'continuation',
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw usageError(
      `The continuation file ${JSON.stringify(path)} is not JSON. Pass the file \`run --continuation-out\` wrote.`,
      'continuation',
    );
  }
  const envelope = fileSchema.safeParse(json);
  if (!envelope.success) {
    throw usageError(
      `The continuation file ${JSON.stringify(path)} is not an agent-assistant continuation file (${formatIssues(envelope.error.issues)}).`,
      'continuation',
    );
  }
  const settings = runSettingsSchema.safeParse(envelope.data.settings);
  if (!settings.success) {
    throw usageError(
      `The continuation file ${JSON.stringify(path)} has invalid settings (${formatIssues(settings.error.issues, 'settings')}).`,
      'continuation',
    );
  }
  return {
    format: 'agent-assistant-continuation',
    version: 1,
    settings: settings.data,
    continuation: envelope.data.continuation,
  };
}
