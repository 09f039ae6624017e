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
      globalSetup: '<rootDir>/libs/testing/src/integration.global-setup.ts',
      testTimeout: 60_000,
    }),
    tier('e2e', __dirname, 'e2e-spec', {
      globalSetup: '<rootDir>/e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/e2e/support/global-teardown.ts',
      testTimeout: 120_000,
    }),
  ],
};
