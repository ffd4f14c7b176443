import { createDirectoryOutputStore, type DirectoryOutputStore } from './directory-output-store.js';
import { loadOutputFs } from './load-output-fs.js';
import type { OutputArtifactStore } from './output-artifact.js';

/**
 * A directory output store in a new private folder of the OS temporary directory
 * (`<tmpdir>/<prefix>XXXXXX`, made by `mkdtemp`, mode 0700), created on the first `put`, never
 * deleted. `location` is `undefined` until then. Node.js only, loaded on first use.
 */
export function createTemporaryOutputStore(prefix: string): OutputArtifactStore {
  let store: Promise<DirectoryOutputStore> | undefined;
  let location: string | undefined;
  const open = () => {
    store ??= loadOutputFs().then(async (fs) => {
      const directory = await fs.mkdtemp(`${fs.tmpdir()}/${prefix}`);
      location = directory;
      return createDirectoryOutputStore({ directory });
    });
    store.catch(() => {
      store = undefined;
    });
    return store;
  };
  return {
    get location() {
      return location;
    },
    put: async (id, streams) => (await open()).put(id, streams),
    get: async (id) => (store === undefined ? undefined : (await open()).get(id)),
  };
}
