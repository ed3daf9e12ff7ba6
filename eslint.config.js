// ESLint flat config. The key rule: workflow code must stay deterministic, so src/workflows/** may not import
// node builtins, I/O packages or the non-workflow Temporal packages.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const { builtinModules } = require('node:module');

const banned = [
  ...builtinModules,
  ...builtinModules.map((m) => `node:${m}`),
  'execa',
  'yaml',
  'commander',
  '@temporalio/activity',
  '@temporalio/client',
  '@temporalio/worker',
  '@temporalio/testing',
];

module.exports = tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.temporal/**',
      '.ralph/**',
      'coverage/**',
      'test/fixtures/**',
      'test/agents/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    files: ['src/workflows/**/*.ts', 'src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: banned.map((name) => ({
            name,
            message: 'Workflow/core code must be deterministic: do I/O in an activity.',
          })),
          patterns: [
            {
              group: ['../activities', '../activities/*'],
              allowTypeImports: true,
              message: 'Import activities as types only.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Not deterministic.' },
        { name: 'process', message: 'Workflows never read env or process state.' },
      ],
    },
  },
);
