// Guard factories that runResumeGuardConformance's claimer processes import (built package).
import { createFileResumeGuard, createMemoryResumeGuard } from '@agent-assistant/harness';

/** A file resume guard over `directory`. */
export function fileGuard({ directory }) {
  return createFileResumeGuard({ directory });
}

/** A memory resume guard: each process has its own, so it cannot hold across processes. */
export function memoryGuard() {
  return createMemoryResumeGuard();
}
