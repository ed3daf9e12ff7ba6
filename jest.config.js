/** Jest: TypeScript through @swc/jest (fast, no type-check: `npm run typecheck` does that). */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // The real agent CLIs (scripts/agents.js) install under test/agents: ~1 GB of packages, nothing to test or map.
  // The real repositories of the corpus carry their own suites (run by their own runners, not by this jest).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/agents/', '<rootDir>/test/fixtures/real-repos/'],
  modulePathIgnorePatterns: ['<rootDir>/test/agents/', '<rootDir>/test/fixtures/real-repos/'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  // Workflow suites start a real Temporal dev server per file: give them time, and run at most 2 files at once (2 cores).
  testTimeout: 120_000,
  maxWorkers: 2,
  // The native bridge keeps handles open briefly after teardown.
  forceExit: true,
  reporters: ['default', '<rootDir>/test/helpers/summary-reporter.js'],
};
