import type { OutputArtifactStore, OutputStreams } from '../output-artifact.js';

/** An output store in a `Map` (a user's own store, as in a Worker), recording the ids it was asked for. */
export function createMapOutputStore(): OutputArtifactStore & { artifacts: Map<string, OutputStreams>; calls: string[] } {
  const artifacts = new Map<string, OutputStreams>();
  const calls: string[] = [];
  return {
    artifacts,
    calls,
    put(id, streams) {
      calls.push(`put ${id}`);
      artifacts.set(id, { stdout: streams.stdout.slice(), stderr: streams.stderr.slice() });
      return Promise.resolve();
    },
    get(id) {
      calls.push(`get ${id}`);
      return Promise.resolve(artifacts.get(id));
    },
  };
}
