/** Jest runs the TypeScript tests against the real MariaDB and Temporal servers started by scripts/test.sh. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  setupFiles: ['reflect-metadata'],
  testTimeout: 60000,
  maxWorkers: 2,
};
