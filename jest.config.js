/** Jest runs the TypeScript tests against the real MariaDB and Temporal servers started by scripts/test.sh. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', {}],
    // @scalar/openapi-parser and its helpers, linkedom's CSS selector packages and jose ship ES modules
    // only: compiled to CommonJS for jest (Node itself loads them with require)
    '^.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true }, isolatedModules: true }],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(@scalar|leven|css-select|css-what|nth-check|boolbase|domutils|domhandler|dom-serializer|domelementtype|entities|cssomnom|html-escaper|jose)/)',
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  setupFiles: ['reflect-metadata', '<rootDir>/test/support/same-realm-clone.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};
