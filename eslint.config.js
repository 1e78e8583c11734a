// One lint configuration for the browser, the server, the tests and the scripts (run by `npm test`).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-server/**', '.test-output/**', 'data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // A CommonJS module standing for a package a library requires (src/i18n/objectEntries.cjs).
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.commonjs } },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/unit/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // One confirmation dialog (src/admin/ConfirmDialog.tsx): react-admin's own draws a warning icon on its cancel button.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/admin/ConfirmDialog.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['react-admin', 'ra-ui-materialui'].map((name) => ({
            name,
            importNames: ['Confirm'],
            message: 'Use ConfirmDialog (src/admin/ConfirmDialog.tsx).',
          })),
        },
      ],
    },
  },
);
