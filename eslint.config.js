import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const workerSafe = [
  'packages/harness/src/core/**/*.ts',
  'packages/harness/src/execution/**/*.ts',
  'packages/harness/src/shared/**/*.ts',
  'packages/harness/src/providers/**/*.ts',
  'packages/harness/src/tools/**/*.ts',
  'packages/harness/src/context/**/*.ts',
  'packages/harness/src/agent-relay/protocol/**/*.ts',
  'packages/harness/src/agent-relay/execution-adapter/**/*.ts',
  'packages/harness/src/testing/*.ts',
  'packages/vfs/src/*.ts',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'docs/api/**', '**/.turbo/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        crypto: 'readonly',
        performance: 'readonly',
        Buffer: 'readonly',
        ReadableStream: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'id-denylist': ['error', 'opts', 'msg', 'e', 'err', 'cb'],
    },
  },
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 500, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 1000, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: workerSafe,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Worker-safe code must not import Node built-ins; use src/local/ or a Node-only subpath.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Buffer', message: 'Use Uint8Array/TextEncoder in Worker-safe code.' }, { name: 'process', message: 'Worker-safe code takes configuration through parameters.' }],
    },
  },
  {
    files: ['**/index.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/internal/**'], message: 'index files must not re-export internals.' }] }],
    },
  },
);
