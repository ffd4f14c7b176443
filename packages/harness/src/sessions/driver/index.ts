// The session driver: one ExecutionAdapter over any session protocol (see
// docs/architecture/session-driver.md). Internal to sessions/: not re-exported by the main entry.
export { createSessionAdapter, SessionExecutionAdapter } from './session-execution-adapter.js';
export type {
  ProtocolSession,
  SessionApprovalAnswerer,
  SessionApprovalView,
  SessionCallContext,
  SessionDriverSettings,
  SessionPlacement,
  SessionProtocol,
  SessionStartContext,
} from './session-protocol.js';
export { SessionTurn, type SessionTurnStop } from './session-turn.js';
export { failedResult, SessionTurnReport } from './session-turn-report.js';
