import { parseProviderProfiles } from '../../providers/profiles/parse-provider-profiles.js';
import type { ProviderProfileSet } from '../../providers/profiles/provider-profile-types.js';
import { parseJsonText } from './parse-json-text.js';
import { readCliFile } from './read-cli-file.js';

/** The largest profiles file read: 1 MiB. */
export const MAX_PROFILES_FILE_BYTES = 1024 * 1024;

/**
 * Reads and validates a provider profiles file. Its text is never quoted in an error (a key file
 * named by mistake stays off the screen): a syntax error gives the line and column only.
 * @throws HarnessConfigError: the file cannot be read, is over 1 MiB, is not JSON, or a profile is invalid (the message names it).
 */
export async function readProfilesFile(path: string): Promise<ProviderProfileSet> {
  const text = await readCliFile(path, {
    what: 'the profiles file',
    field: 'profiles',
    maxBytes: MAX_PROFILES_FILE_BYTES,
    hint: 'Check the path given to --profiles.',
  });
  return parseProviderProfiles(parseJsonText(text, `The profiles file ${JSON.stringify(path)}`, 'profiles'));
}
