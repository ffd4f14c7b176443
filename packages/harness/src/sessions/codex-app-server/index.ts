export {
  CODEX_APP_SERVER_BACKEND_ID,
  CODEX_APP_SERVER_CONTINUATION_KIND,
  CodexAppServerAdapter,
  createCodexAppServerAdapter,
} from './codex-app-server-adapter.js';
export type { CodexAppServerAdapterOptions } from './codex-app-server-options.js';
