import type { Extensions } from '../generic/extensions';
import { lazyNamed } from '../lazyNamed';
import { AUDIT_LOG, PERSONAL_DATA_READS } from './AuditLog';

// every special screen is a chunk of its own, loaded when first opened: the editors (TipTap), the
// map (OpenLayers), the chat are none of the first screen's weight (docs/performance.md)
const AccessManaging = lazyNamed(() => import('./AccessManaging'), 'AccessManaging');
const EcologicCalculator = lazyNamed(() => import('./EcologicCalculator'), 'EcologicCalculator');
const InnSearch = lazyNamed(() => import('./InnSearch'), 'InnSearch');
const OffencesMap = lazyNamed(() => import('./OffencesMap'), 'OffencesMap');
const StackImportButton = lazyNamed(() => import('./StackImport'), 'StackImportButton');
const SubjectBalance = lazyNamed(() => import('./SubjectBalance'), 'SubjectBalance');
const RefBooks = lazyNamed(() => import('./RefBooks'), 'RefBooks');
const TemplateEditor = lazyNamed(() => import('../documents/TemplateEditor'), 'TemplateEditor');
const PublicationEditor = lazyNamed(() => import('./PublicationEditor'), 'PublicationEditor');
const OperatorChat = lazyNamed(() => import('./OperatorChat'), 'OperatorChat');
const TemplateVariables = lazyNamed(() => import('./TemplateVariables'), 'TemplateVariables');
const FineInterval = lazyNamed(() => import('./FineInterval'), 'FineInterval');
const SubjectInnHint = lazyNamed(() => import('./SubjectInnHint'), 'SubjectInnHint');
const PersonData = lazyNamed(() => import('./PersonData'), 'PersonData');
const SetUserPasswordButton = lazyNamed(() => import('./SetUserPassword'), 'SetUserPasswordButton');

/**
 * The spec's special screens: what the metadata cannot say. Everything else about these entities
 * (fields, lists, filters, forms, workflow actions, related lists) is generated.
 */
export const EXTENSIONS: Extensions = {
  entities: {
    // the trail of changes: entity and action names by their captions, a link to the changed row
    'audit-log': AUDIT_LOG,
    // who read personal data in clear: the entity by its caption, as in the trail
    'personal-data-reads': PERSONAL_DATA_READS,
    // a bank statement (.xlsx) imported into a payment stack
    'stack-payments': { showActions: StackImportButton },
    // a subject found by INN; its balance for a year
    // a notification template's body: the placeholders its type allows, beside it
    'notification-templates': { formHints: { body: TemplateVariables } },
    // the chosen fine article's interval of minimum-wage multiples, as soon as it is chosen (spec §5)
    offences: { formHints: { fine_id: FineInterval } },
    'subject-protocols': { formHints: { fine_id: FineInterval } },
    // an administrator sets a user's new password (users/set-new-password): the user's sessions end
    users: { showActions: SetUserPasswordButton },
    'population-users': { showActions: SetUserPasswordButton },
    'mvd-users': { showActions: SetUserPasswordButton },
    subject: {
      listActions: InnSearch,
      // the spec's "fill the reference form before adding or searching a subject", under the INN until one is typed
      formHints: { inn: SubjectInnHint },
      showTabs: [{ key: 'balance', label: 'admin.balance.title', Component: SubjectBalance }],
    },
  },
  screens: {
    'ecofund/ecologic-calculator': { Component: EcologicCalculator },
    'managing/access-managing/:user_roles_id': { Component: AccessManaging, linkFrom: 'user-roles', linkLabel: 'admin.access.open' },
    // a template's text with its fields as placeholders (TipTap)
    // the offences the user may read on a map: clusters from the aggregates, single offences zoomed in
    'ecofund-offences/offences-map': { Component: OffencesMap },
    'ecofund-offences/template-document-editor/:id': {
      Component: TemplateEditor,
      linkFrom: 'template-documents',
      linkLabel: 'admin.editor.open',
    },
    // a news item's text in the rich-text editor, published or withdrawn from there
    'notification/pubs-edit/:id': { Component: PublicationEditor, linkFrom: 'publications', linkLabel: 'admin.pubs.open' },
    // the operators' chat with the public: open chats, unread counts, answers in real time (docs/chat.md)
    'notification/operator-chat': { Component: OperatorChat },
    // reference books made at run time (docs/reference-books.md)
    'admin/ref-books': { Component: RefBooks },
    // a person's data by PINFL or passport: what is held, their export, anonymisation (docs/personal-data.md)
    'admin/personal-data': { Component: PersonData },
  },
};
