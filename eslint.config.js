// ESLint over the whole tree (`npm run lint`, run in CI after the type checks). typescript-eslint's
// `recommended` set without type information, so a run stays quick; react-hooks' rules for the two
// browser faces. Every rule turned off or down below says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**', 'artifacts/**'] },

  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // the sanitizers match control characters on purpose (XML 1.0's, NUL that PostgreSQL text refuses, a URL scheme's)
      'no-control-regex': 'off',
      // `_`-prefixed names are the codebase's way of saying "deliberately unused" (a signature's place, a rest sibling)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },

  // Tests read loosely shaped JSON answers and reach into objects on purpose; an `any` there is no hole in the product.
  {
    files: ['**/*.test.ts', 'test/**', 'e2e/**', 'public-site/e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  // The two browser faces: browser globals and the rules of hooks.
  {
    files: ['admin/src/**/*.{ts,tsx}', 'public-site/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The plugin's other `recommended` rules (refs, set-state-in-effect, …) check code for the React
      // Compiler, which these faces do not use: 31 hits of idioms that are correct without it.
    },
  },

  // The API reference page's script, served as is to the browser.
  {
    files: ['api/modules/system/docs/docs.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  // Configuration in CommonJS.
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
