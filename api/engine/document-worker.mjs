// A print worker thread's entry (api/engine/document-print.ts): the engine is TypeScript, run
// through tsx's loader in the server (cli/bin.mjs), under vitest and `node --import tsx` alike; a
// worker thread does not inherit a loader registered in code, so it registers its own.
import { register } from 'tsx/esm/api';

register();
await import('./document-worker.ts');
