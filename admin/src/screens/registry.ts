import type { Extensions } from '../generic/extensions';
import { AccessManaging } from './AccessManaging';
import { AUDIT_LOG } from './AuditLog';
import { EcologicCalculator } from './EcologicCalculator';
import { InnSearch } from './InnSearch';
import { OffencesMap } from './OffencesMap';
import { StackImportButton } from './StackImport';
import { SubjectBalance } from './SubjectBalance';
import { RefBooks } from './RefBooks';
import { TemplateEditor } from '../documents/TemplateEditor';
import { PublicationEditor } from './PublicationEditor';
import { OperatorChat } from './OperatorChat';
import { TemplateVariables } from './TemplateVariables';
import { FineInterval } from './FineInterval';
import { SubjectInnHint } from './SubjectInnHint';
import { SetUserPasswordButton } from './SetUserPassword';

/**
 * The spec's special screens: what the metadata cannot say. Everything else about these entities
 * (fields, lists, filters, forms, workflow actions, related lists) is generated.
 */
export const EXTENSIONS: Extensions = {
  entities: {
    // the trail of changes: entity and action names by their captions, a link to the changed row
    'audit-log': AUDIT_LOG,
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
    'ecofund-offences/template-document-editor/:id': { Component: TemplateEditor, linkFrom: 'template-documents', linkLabel: 'admin.editor.open' },
    // a news item's text in the rich-text editor, published or withdrawn from there
    'notification/pubs-edit/:id': { Component: PublicationEditor, linkFrom: 'publications', linkLabel: 'admin.pubs.open' },
    // the operators' chat with the public: open chats, unread counts, answers in real time (docs/chat.md)
    'notification/operator-chat': { Component: OperatorChat },
    // reference books made at run time (docs/reference-books.md)
    'admin/ref-books': { Component: RefBooks },
  },
};
