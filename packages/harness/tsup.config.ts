import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    'testing-node': 'src/testing/node/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  splitting: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  noExternal: ['zod', 'eventsource-parser'],
  // Readable output: users' stack traces point at real names, and their own bundlers minify.
  minify: false,
  sourcemap: false,
});
