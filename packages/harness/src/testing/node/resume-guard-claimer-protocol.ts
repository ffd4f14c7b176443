import type { ResumeGuardClaimerJob, ResumeGuardClaimerResult } from '../resume-guard-conformance/conformance-types.js';

/** The first stdin line of a claimer process. */
export interface ClaimerSetup {
  /** `file:` URL of the module that builds the guard. */
  module: string;
  exportName: string;
  args: unknown;
  job: ResumeGuardClaimerJob;
}

/** What a claimer process writes to stdout, one JSON object a line. */
export type ClaimerMessage =
  | { type: 'ready' }
  | { type: 'tool-started' }
  | { type: 'result'; result: ResumeGuardClaimerResult }
  | { type: 'error'; message: string };
