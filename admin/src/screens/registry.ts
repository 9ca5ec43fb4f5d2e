import type { Extensions } from '../generic/extensions';
import { AccessManaging } from './AccessManaging';
import { EcologicCalculator } from './EcologicCalculator';
import { InnSearch } from './InnSearch';
import { StackImportButton } from './StackImport';
import { SubjectBalance } from './SubjectBalance';

/**
 * The spec's special screens: what the metadata cannot say. Everything else about these entities
 * (fields, lists, filters, forms, workflow actions, related lists) is generated.
 */
export const EXTENSIONS: Extensions = {
  entities: {
    // a bank statement (.xlsx) imported into a payment stack
    'stack-payments': { showActions: StackImportButton },
    // a subject found by INN; its balance for a year
    subject: {
      listActions: InnSearch,
      showTabs: [{ key: 'balance', label: 'admin.balance.title', Component: SubjectBalance }],
    },
  },
  screens: {
    'ecofund/ecologic-calculator': { Component: EcologicCalculator },
    'managing/access-managing/:user_roles_id': { Component: AccessManaging, linkFrom: 'user-roles', linkLabel: 'admin.access.open' },
  },
};
