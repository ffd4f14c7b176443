/**
 * @module @agent-assistant/harness/testing
 * Deterministic fakes that implement the harness's real contracts, for your own tests.
 */
export { createScriptedModel, type ScriptedModel, type ScriptedModelOptions, type ScriptedModelStep, type ScriptedStreamStep } from './scripted-model.js';
export { createFakeToolRegistry, type FakeTool, type FakeToolOutput, type FakeToolRegistry } from './fake-tool-registry.js';
export {
  createFakeExecutionAdapter,
  type FakeExecutionAdapter,
  type FakeExecutionAdapterOptions,
  type FakeExecutionStep,
} from './fake-execution-adapter.js';
export { createManualClock, type ManualClock } from './manual-clock.js';
export { createTurnInput } from './create-turn-input.js';
export { memoryTraceSink, type MemoryTraceSink } from '../core/trace/memory-trace-sink.js';
export { createMemoryRelay, type MemoryRelay, type MemoryRelayDecision, type MemoryRelayOptions } from './memory-relay.js';
export { runResumeGuardConformance } from './resume-guard-conformance/run-resume-guard-conformance.js';
export { runResumeGuardClaimer } from './resume-guard-conformance/conformance-scenario.js';
export type {
  MakeResumeGuard,
  ResumeGuardClaimer,
  ResumeGuardClaimerJob,
  ResumeGuardClaimerResult,
  ResumeGuardClaimers,
  ResumeGuardConformanceCheck,
  ResumeGuardConformanceOptions,
  ResumeGuardConformanceReport,
  ResumeGuardConformanceSkip,
  ResumeGuardStoreControl,
  ResumeGuardThroughput,
} from './resume-guard-conformance/conformance-types.js';
