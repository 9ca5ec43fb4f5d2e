import type { ModuleDef } from '../types.ts';
import { AUTH_HANDLERS } from './auth.ts';
import { ACCOUNT_HANDLERS } from './accounts.ts';
import { APP_HANDLERS } from './app.ts';
import { FILE_HANDLERS } from './files.ts';
import { DOCS_HANDLERS } from './docs.ts';
import { BOOK_HANDLERS, BOOK_HOOKS } from './books.ts';
import { METRICS_HANDLERS } from './metrics.ts';

/** The system's own calls (metadata/modules/system.json): health, metadata, the API's reference, sign-in, the user's menu and language, files; the database-held reference books' hooks. */
export const systemModule: ModuleDef = {
  name: 'system',
  hooks: { ...BOOK_HOOKS },
  handlers: {
    ...APP_HANDLERS,
    ...AUTH_HANDLERS,
    ...ACCOUNT_HANDLERS,
    ...FILE_HANDLERS,
    ...DOCS_HANDLERS,
    ...BOOK_HANDLERS,
    ...METRICS_HANDLERS,
  },
};
