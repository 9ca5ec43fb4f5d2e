// ESLint over the whole tree (`npm run lint`, run in CI after the type checks). typescript-eslint's
// `recommended` set without type information, so a run stays quick; react-hooks' rules for the two
// browser faces. Every rule turned off or down below says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Calls that name a table: `knex('t')`, `trx('t as x')`, `rc.knex('t')`, `q.from('t')`, `q.join('t as x', …)`. */
const TABLE = "[arguments.0.type='Literal'][arguments.0.value=/^[a-z_]+( as [a-z_]+)?$/]";
/** SQL text that names a table after FROM or JOIN (not a function, a subquery, LATERAL or a `??` binding). */
const RAW_TABLE = '[value=/\\b(from|join)\\s+(?!lateral\\b)[a-z_]+\\b(?!\\s*\\()/i]';
export const TABLE_RULES = [
  {
    selector: `CallExpression[callee.name=/^(knex|trx|db|tx)$/]${TABLE}`,
    message:
      'Read an entity through the repository (rc.repo, ctx.repo) or its public block (api/engine/public-read.ts); an aggregate or a system table through api/read-models/ (docs/decisions/0040).',
  },
  {
    selector: `CallExpression[callee.property.name=/^(knex|trx|db|tx)$/]${TABLE}`,
    message:
      'Read an entity through the repository (rc.repo, ctx.repo) or its public block (api/engine/public-read.ts); an aggregate or a system table through api/read-models/ (docs/decisions/0040).',
  },
  {
    selector: `CallExpression[callee.property.name=/^(from|join|leftJoin|rightJoin|innerJoin|table|into)$/]${TABLE}`,
    message: 'A table named in a query escapes its scope: read it through its repository or api/read-models/ (docs/decisions/0040).',
  },
  {
    // a table named inside raw SQL (`.raw('… from payments …')`, `.joinRaw('join payment_splits …')`)
    selector: `CallExpression[callee.property.name=/^raw$|Raw$/] Literal${RAW_TABLE}`,
    message:
      'A table named in raw SQL escapes its scope: join child rows with repo.scopedChildren, read the rest through its repository or api/read-models/ (docs/decisions/0040).',
  },
  {
    selector: `CallExpression[callee.property.name=/^raw$|Raw$/] TemplateElement${RAW_TABLE.replace('value=', 'value.raw=')}`,
    message:
      'A table named in raw SQL escapes its scope: join child rows with repo.scopedChildren, read the rest through its repository or api/read-models/ (docs/decisions/0040).',
  },
  {
    // a table named by a variable: `trx(INGREDIENTS)`, `trx(table)`
    selector: "CallExpression[callee.name=/^(knex|trx|db|tx)$/][arguments.0.type='Identifier']",
    message: 'A table named by a variable escapes its scope: read it through its repository or api/read-models/ (docs/decisions/0040).',
  },
];
/** A module takes the repository its context gives; the HTTP layer builds those. */
export const NEW_REPOSITORY_RULE = {
  selector: "NewExpression[callee.name='Repository']",
  message: 'Take the repository the context gives (rc.repo, rc.trustedRepo, ctx.repo) rather than building one (docs/decisions/0040).',
};
/**
 * Files that still name tables, each held to its count by test/read-path-guard.test.ts until it is
 * moved to the read path (issue 27). None is left: a file added here needs a reason in a decision.
 */
/** @type {string[]} */
export const READ_PATH_PENDING = [];

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

  // One read path (docs/decisions/0040): modules and the HTTP layer name no table. Entities are read
  // and written through the repository (rc.repo, rc.trustedRepo, a hook's ctx.repo) or their public
  // block (api/engine/public-read.ts); aggregates and system tables through api/read-models/.
  // test/read-path-guard.test.ts holds the files not moved yet to their counts, so none can grow.
  {
    files: ['api/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TABLE_RULES] },
  },
  {
    files: ['api/modules/**/*.ts'],
    ignores: ['**/*.test.ts', ...READ_PATH_PENDING],
    rules: { 'no-restricted-syntax': ['error', ...TABLE_RULES, NEW_REPOSITORY_RULE] },
  },

  // The three browser faces: browser globals and the rules of hooks.
  {
    files: ['admin/src/**/*.{ts,tsx}', 'public-site/src/**/*.{ts,tsx}', 'field/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The plugin's other `recommended` rules (refs, set-state-in-effect, …) check code for the React
      // Compiler, which these faces do not use: 31 hits of idioms that are correct without it.
    },
  },

  // The field app's service worker, served as it is (field/public/sw.js).
  {
    files: ['field/public/sw.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.serviceworker } },
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
