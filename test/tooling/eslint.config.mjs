// Lint rules for src/; `npm run lint` runs them and `npm test` runs that.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Validators of names and headers match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    // What a user of the package writes; the packaging test copies them into scratch projects.
    files: ['test/integration/packaging/consumers/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.jest } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/admin/inspector-page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
