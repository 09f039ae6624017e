/** Shared Jest settings: TypeScript through SWC, three tiers selected by file suffix. */
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};

function tier(displayName, rootDir, suffix, extra = {}) {
  return {
    displayName,
    rootDir,
    testEnvironment: 'node',
    transform,
    testMatch: [`<rootDir>/**/*.${suffix}.ts`],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    // In the checkout, not Jest's machine-wide /tmp/jest_0: Jest runs the files that failed or were
    // slow last time first, so a shared cache let any earlier run on the machine reorder a fresh
    // clone's suites. A fresh clone now runs them in one order, largest file first.
    cacheDirectory: '<rootDir>/.data/jest-cache',
    ...extra,
  };
}

module.exports = { transform, tier };
