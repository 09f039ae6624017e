// Integration and end-to-end tests wait on real infrastructure and processes: give each test
// two minutes (Jest reads `testTimeout` only from the root config, not per project).
jest.setTimeout(120_000);
