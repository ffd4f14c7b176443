import { UnknownBackendError } from '../errors/unknown-backend-error.js';
import { LOCAL_BACKEND_IDS, type LocalBackendId } from '../local-backend-ids.js';

/** What a person needs to know to install or point at a backend's CLI. */
export interface LocalBackendEntry {
  command: string;
  label: string;
  install: string;
  /**
   * An npm launcher script that runs a native binary from its own package: `script` is the file
   * the npm bin links to, `binary` the executable relative to the script's directory (`.exe` added
   * on Windows). The probe checks the binary instead of running the script.
   */
  npmShim?: { script: string; binary: string } | undefined;
}

/** The known backends. */
export const LOCAL_BACKENDS: Readonly<Record<LocalBackendId, LocalBackendEntry>> = /* @__PURE__ */ Object.freeze({
  'claude-code': { command: 'claude', label: 'Claude Code CLI', install: 'npm install -g @anthropic-ai/claude-code' },
  codex: { command: 'codex', label: 'Codex CLI', install: 'npm install -g @openai/codex' },
  'gemini-cli': { command: 'gemini', label: 'Gemini CLI', install: 'npm install -g @google/gemini-cli' },
  opencode: { command: 'opencode', label: 'opencode', install: 'npm install -g opencode-ai' },
  pi: { command: 'pi', label: 'pi', install: 'npm install -g @mariozechner/pi-coding-agent' },
  copilot: { command: 'copilot', label: 'GitHub Copilot CLI', install: 'npm install -g @github/copilot' },
  crush: {
    command: 'crush',
    label: 'crush',
    install: 'npm install -g @charmland/crush',
    npmShim: { script: 'run-crush.js', binary: 'bin/crush' },
  },
  goose: { command: 'goose', label: 'goose', install: 'curl -fsSL https://github.com/block/goose/releases/download/stable/download_cli.sh | bash' },
  cursor: { command: 'cursor-agent', label: 'Cursor CLI', install: 'curl https://cursor.com/install -fsS | bash' },
});

/** `id` as a known backend id; throws `UnknownBackendError` otherwise. */
export function knownBackendId(id: string): LocalBackendId {
  if (typeof id === 'string' && (LOCAL_BACKEND_IDS as readonly string[]).includes(id)) return id as LocalBackendId;
  throw new UnknownBackendError(String(id), LOCAL_BACKEND_IDS);
}
