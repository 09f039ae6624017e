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
    ...extra,
  };
}

module.exports = { transform, tier };
