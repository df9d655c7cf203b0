// Jest: unit specs next to the code (src/**/*.spec.ts) and e2e specs (test/**/*.e2e-spec.ts). Every e2e file
// gets its own database cloned from a migrated template (test/global-setup.ts). The swagger CLI plugin runs under
// ts-jest too, so the OpenAPI document tested is the one production serves.
module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|e2e-spec)\\.ts$',
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: '<rootDir>/tsconfig.json',
        diagnostics: false,
        astTransformers: { before: ['<rootDir>/test/swagger-transformer.js'] },
      },
    ],
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
