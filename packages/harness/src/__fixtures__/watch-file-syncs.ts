// Watches every `fsync` Node's `fs/promises` makes (through the `FileHandle` prototype, passing
// each call on), so a test can see what was on disk at each flush.
import * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Calls `onSync` before each `FileHandle.sync()` anywhere in this process until the returned
 * function is called. `scratch` is a folder where a probe file may be created.
 */
export async function watchFileSyncs(scratch: string, onSync: () => void): Promise<() => void> {
  const probe = await fsPromises.open(join(scratch, '.sync-probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  await fsPromises.rm(join(scratch, '.sync-probe'));
  const original = prototype.sync;
  prototype.sync = function (this: fsPromises.FileHandle) {
    onSync();
    return original.call(this);
  };
  return () => {
    prototype.sync = original;
  };
}
