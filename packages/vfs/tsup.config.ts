import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // Worker-safe root entry and the Node-only `./node` subpath.
    entry: { index: 'src/index.ts', node: 'src/node/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
  },
  {
    // The `vfs` executable (ESM only; top-level await).
    entry: { cli: 'src/node/vfs-cli-bin.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    platform: 'node',
    target: 'es2022',
  },
]);
