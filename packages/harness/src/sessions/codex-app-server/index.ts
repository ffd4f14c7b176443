export {
  CODEX_APP_SERVER_BACKEND_ID,
  CODEX_APP_SERVER_CONTINUATION_KIND,
  CodexAppServerAdapter,
  CodexAppServerExecutionAdapter,
  createCodexAppServerAdapter,
} from './codex-app-server-execution-adapter.js';
export type { CodexAppServerAdapterOptions } from './codex-app-server-options.js';
