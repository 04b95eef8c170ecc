/**
 * Jest runs the TypeScript tests against the real MariaDB and Temporal servers started by scripts/test.sh, in
 * two projects: `database`, whose global set-up migrates the test database first, and `standalone`, the
 * tests that never reach the database (no data source, server or factory of test/support), which start at once
 * and run without a database at all. A file belongs to `database` when its source names any of those helpers.
 */
const fs = require('fs');
const path = require('path');

const USES_DATABASE =
  /useServer|startServer|createDataSource|DataSource|ds\.manager|factories'|support\/(server|temporal|worker-process|content|api|sites|tour-shell|job-faults|translations|integration-rows|comments|heads|authorization-world|private-mariadb|pdf)'/;

function testFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(file);
    return entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

const standalone = testFiles(path.join(__dirname, 'test')).filter(
  (file) => !USES_DATABASE.test(fs.readFileSync(file, 'utf8')),
);

const shared = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: {
    '^.+\\.ts$': ['ts-jest', {}],
    // @scalar/openapi-parser and its helpers, linkedom's CSS selector packages and jose ship ES modules
    // only: compiled to CommonJS for jest (Node itself loads them with require)
    '^.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true }, isolatedModules: true }],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(@scalar|leven|css-select|css-what|nth-check|boolbase|domutils|domhandler|dom-serializer|domelementtype|entities|cssomnom|html-escaper|jose)/)',
  ],
  setupFiles: ['reflect-metadata', '<rootDir>/test/support/same-realm-clone.ts'],
};

// testTimeout and maxWorkers are options of the whole run: a project's own would be ignored
module.exports = {
  testTimeout: 60000,
  maxWorkers: 2,
  projects: [
    {
      ...shared,
      displayName: 'database',
      testMatch: ['**/*.test.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        ...standalone.map((file) => `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      ],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
    },
    {
      ...shared,
      displayName: 'standalone',
      testMatch: standalone,
    },
  ],
};
