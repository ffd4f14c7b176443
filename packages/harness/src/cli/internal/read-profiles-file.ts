import { readFile } from 'node:fs/promises';
import { parseProviderProfiles } from '../../providers/profiles/parse-provider-profiles.js';
import type { ProviderProfileSet } from '../../providers/profiles/provider-profile-types.js';
import { usageError } from './cli-usage-error.js';

/**
 * Reads and validates a provider profiles file.
 * @throws HarnessConfigError: the file cannot be read, is not JSON, or a profile is invalid (the message names it).
 */
export async function readProfilesFile(path: string): Promise<ProviderProfileSet> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw usageError(
      `Cannot read the profiles file ${JSON.stringify(path)} (${String(code ?? 'error')}). Check the path given to --profiles.`,
      'profiles',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw usageError(`The profiles file ${JSON.stringify(path)} is not valid JSON: ${(error as Error).message}.`, 'profiles');
  }
  return parseProviderProfiles(json);
}
