/**
 * Three tiers, selected by file suffix (docs/decisions/0002-test-tiers.md):
 *   *.spec.ts      unit: pure logic, no I/O
 *   *.int-spec.ts  integration: one service's code against real Postgres, Redis and Kafka
 *   *.e2e-spec.ts  end-to-end: every service started, called through the gateway over HTTP
 */
const { tier } = require('./jest.preset');

module.exports = {
  projects: [
    tier('unit', __dirname, 'spec'),
    tier('integration', __dirname, 'int-spec', {
      globalSetup: '<rootDir>/tools/testing/integration.global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/slow-tier.setup.ts'],
    }),
    tier('e2e', __dirname, 'e2e-spec', {
      globalSetup: '<rootDir>/tools/testing/e2e.global-setup.ts',
      globalTeardown: '<rootDir>/tools/testing/e2e.global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/slow-tier.setup.ts', '<rootDir>/e2e/support/documented-answers.setup.ts'],
    }),
  ],
};
