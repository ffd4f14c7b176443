export {
  CODEX_APP_SERVER_BACKEND_ID,
  CODEX_APP_SERVER_CONTINUATION_KIND,
  CodexAppServerAdapter,
  createCodexAppServerAdapter,
  type CodexAppServerAdapterOptions,
} from './codex-app-server-adapter.js';
