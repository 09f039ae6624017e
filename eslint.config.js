const nx = require('@nx/eslint-plugin');
const tseslint = require('typescript-eslint');

const services = ['gateway', 'identity', 'catalog', 'ticketing', 'payments', 'scanning', 'webhooks'];
const testFiles = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'e2e/**/*.ts', '**/test/**/*.ts'];

/**
 * Apps never import each other; libs never import apps; no deep imports past a lib's index.
 * Test files may also use the testing lib, whatever project they sit in.
 */
function moduleBoundaries({ inTests }) {
  const allow = (...types) => (inTests ? [...types, 'type:testing'] : types);
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      banTransitiveDependencies: false,
      depConstraints: [
        ...services.map((service) => ({ sourceTag: `scope:${service}`, onlyDependOnLibsWithTags: ['scope:shared'] })),
        { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
        { sourceTag: 'type:app', onlyDependOnLibsWithTags: allow('type:contracts', 'type:infra', 'type:util') },
        { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:infra', 'type:util'] },
        { sourceTag: 'type:infra', onlyDependOnLibsWithTags: allow('type:contracts', 'type:infra', 'type:util') },
        { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: allow('type:util') },
        { sourceTag: 'type:util', onlyDependOnLibsWithTags: allow('type:util') },
      ],
    },
  ];
}

module.exports = tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '.data/**', '.nx/**', 'infra/kafka/target/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@nx/enforce-module-boundaries': moduleBoundaries({ inTests: false }),
    },
  },
  {
    files: testFiles,
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries({ inTests: true }),
      // Tests read JSON bodies whose shape is what they assert.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
