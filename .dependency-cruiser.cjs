/**
 * The direction of the code's dependencies (docs/architecture.md, docs/decisions/0003-engine-as-a-library.md),
 * checked in CI by `npm run lint:deps`: no import cycle anywhere in the API, the back-office or the
 * public site, and the engine's library parts (api/engine, api/meta, api/db, api/auth) never reach
 * up into the modules, the seeds, HTTP or the notifications: start-up builds the modules' registry
 * and hands it in.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle: the files of one cycle cannot be understood, tested or loaded apart.',
      from: { path: '^(api|admin/src|public-site/src|field/src|cli|shared)/' },
      to: { circular: true },
    },
    {
      name: 'engine-is-a-library',
      severity: 'error',
      comment:
        'The engine, the metadata, the database and auth are a library: start-up hands the modules in (api/registry), never the other way.',
      from: { path: '^api/(engine|meta|db|auth)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(api/(modules|http|notify|app|server|workers)|seeds)/?' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
