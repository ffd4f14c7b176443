/**
 * @module @agent-assistant/harness/sessions
 * The engine-session backends (the same ones the main entry exports) and the plumbing under them:
 * the `SessionPool` that keeps one live engine process per session. Node.js only at run time;
 * importing it loads no `node:` module.
 */
export * from './index.js';
export {
  DEFAULT_SESSION_POOL_OPTIONS,
  SessionPool,
  type PooledSession,
  type SessionLease,
  type SessionPoolOptions,
} from './session-pool.js';
