import type { ModuleDef } from '../types.ts';
import { PERSONAL_DATA_HANDLERS } from './routes.ts';

/** A person's data gathered for them and anonymised where the law allows (metadata/modules/personal-data.json, docs/personal-data.md). */
export const personalDataModule: ModuleDef = {
  name: 'personal-data',
  handlers: PERSONAL_DATA_HANDLERS,
};
