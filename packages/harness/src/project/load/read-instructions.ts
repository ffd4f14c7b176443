import type { VfsProvider } from '@agent-assistant/vfs';
import type { ProjectInstructions, ProjectInstructionsInfo } from '../agent-project-types.js';
import type { ProjectLog } from './project-log.js';
import { projectPath } from './project-names.js';
import { readProjectFile } from './read-project-file.js';

/** The instruction files, in order: `CLAUDE.md` is read only when there is no `AGENTS.md`. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;

/**
 * Reads the project instructions: `AGENTS.md`, or `CLAUDE.md` only when `AGENTS.md` does not
 * exist. An empty file (nothing but whitespace), one that is not a regular file, binary, or
 * reached through a symlink leaving the project adds nothing and is a warning; it does not fall
 * back to `CLAUDE.md`. A file over `maxBytes` is a problem.
 */
export async function readInstructions(vfs: VfsProvider, root: string, log: ProjectLog, maxBytes: number): Promise<ProjectInstructions | null> {
  for (const source of INSTRUCTION_FILES) {
    const path = projectPath(root, source);
    const read = await readProjectFile(vfs, path, maxBytes);
    if (read.status === 'missing') continue;
    if (read.status === 'refused') {
      if (read.reason === 'too_large' || read.reason === 'unreadable') log.problem(source, `${source} ${read.message}.`);
      else log.warning(source, `${source} ${read.message}; no project instructions are loaded.`);
      return null;
    }
    if (read.text.trim() === '') {
      log.warning(source, `${source} is empty; no project instructions are loaded.`);
      return null;
    }
    const info: ProjectInstructionsInfo = Object.freeze({ source, path, bytes: read.bytes.length, sha: await shortSha256(read.bytes) });
    return Object.freeze({ text: read.text.trim(), info });
  }
  return null;
}

/** The first 12 hex digits of the SHA-256 of `bytes` (Web Crypto: Node and Workers alike). */
export async function shortSha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.subarray(0, 6), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
