/**
 * @module context/output
 * Command output reduced to what matters under a byte budget, with the raw output kept in a
 * store and recoverable byte for byte.
 */
export {
  reduceOutput,
  MIN_REDUCED_OUTPUT_BUDGET,
  type CommandOutput,
  type ReduceOutputOptions,
  type ReducedOutput,
  type ReducedOutputBlock,
  type ReducedOutputStream,
} from './reduce-output.js';
export {
  readOutputArtifact,
  MAX_OUTPUT_ARTIFACT_BYTES,
  type OutputArtifactStore,
  type OutputStreams,
  type VerifiedOutputArtifact,
} from './output-artifact.js';
export { OutputArtifactError, type OutputArtifactErrorReason } from './output-artifact-error.js';
export { createDirectoryOutputStore, type DirectoryOutputStore, type DirectoryOutputStoreOptions } from './directory-output-store.js';
export { recoverOutput, type RecoverOutputOptions, type RecoveredOutput, type RecoveredStream } from './recover-output.js';
