import type { ModuleDef } from '../types.ts';
import { FIELD_HANDLERS } from './reference.ts';

/** What a field device needs of the server besides idempotent creates and resumable uploads (metadata/modules/field.json, docs/field-app.md). */
export const fieldModule: ModuleDef = {
  name: 'field',
  handlers: FIELD_HANDLERS,
};
