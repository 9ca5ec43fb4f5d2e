import type { EntityMeta, MetaModel, ReportMeta } from '../api/meta/types.ts';

type Text3 = { uz: string; uk: string; ru: string };

/**
 * The spec's ten roles (section 6) and what each is given out of the box, said in the metadata's
 * own names — entities and their operations, workflow actions, menu routes, reports — never as
 * action ids, so that an entity or action added later is picked up by its name (or by a rule such
 * as "every reference book"). `roleActions` turns a role into the action ids of the catalogue;
 * `seed` adds to each system role the ids it has never had a row for (an action an administrator
 * closed stays closed). docs/roles.md is generated from this file (`npx ecofond roles:doc`).
 */

/**
 * The entity operations of `access`, `readAlso` (the other menu routes that open the same rows with
 * a preset filter) and `personal` (reading the entity's personal fields in clear: docs/personal-data.md).
 */
export type Operation = 'read' | 'create' | 'update' | 'delete' | 'export' | 'readAlso' | 'personal';

/** Which of the user's own attributes limits the rows the role's users see (users.region_id, subject_id, branch_id); none: all rows. */
export type RoleScope = 'region' | 'subject' | 'branch' | 'none';

export type Grant =
  /** operations of the named entities, or of every entity a rule picks */
  | { entities: string[] | ((e: EntityMeta, model: MetaModel) => boolean); ops: Operation[] }
  /** workflow actions of an entity, by name */
  | { entity: string; workflow: string[] }
  /** row sets of an entity (its `rows`: an inspector's own offences, the police's sent ones), by name */
  | { entity: string; rows: string[] }
  /** menu routes with no entity of their own (a screen such as the calculator), as `section/route` */
  | { routes: string[] }
  /** reports, by name or by a rule */
  | { reports: string[] | ((r: ReportMeta) => boolean) };

export interface SystemRole {
  code: string;
  name: Text3;
  /** what the role is for (English, for docs/roles.md) */
  purpose: string;
  scope: RoleScope;
  /** the administrator is given every action of the catalogue, whatever the grants say */
  all?: boolean;
  grants: Grant[];
  /** the decisions the spec leaves open, and why */
  notes: string[];
}

/** Modules whose entities and menu routes are the administrator's alone: users, roles, access, settings, logs. */
export const ADMIN_MODULES = ['managing', 'access', 'admin'];

/**
 * Entities of those modules that are the fund's own reference books rather than administration:
 * others may read and export them (the fund's branches, which branch plans point at).
 */
export const SHARED_BOOKS_IN_ADMIN_MODULES = ['branch'];

const isAdminModule = (e: EntityMeta) => ADMIN_MODULES.includes(e.module);

/** A reference book of the fund or the greening registry (not of administration, not the site's content types). */
const domainBook = (e: EntityMeta) => e.kind === 'reference' && !isAdminModule(e) && e.module !== 'notification';

const WORK: Operation[] = ['read', 'create', 'update', 'delete', 'export'];
const READ: Operation[] = ['read', 'export'];

const REPORTS = 'subject-report-yearly';
const CALCULATOR = 'ecofund/ecologic-calculator';
/** the offences map: for whoever reads offences (it shows the rows they may read) */
const OFFENCES_MAP = 'ecofund-offences/offences-map';

export const SYSTEM_ROLES: SystemRole[] = [
  {
    code: 'inspector',
    name: { uz: 'Inspektor', uk: 'Инспектор', ru: 'Инспектор' },
    purpose:
      "An eco-inspector of a region: inspection acts and their stacks, offence protocols, planting inspections and illegal felling; reviews the region's compensation reports and ecological expertise requests.",
    scope: 'region',
    grants: [
      { entities: domainBook, ops: READ },
      {
        entities: ['stack-akts', 'subject-akts', 'stack-protocols', 'subject-protocols', 'planting-inspections', 'tree-cutting-violations'],
        ops: WORK,
      },
      { entities: ['subject', 'payments', 'penya', 'plantings', 'tree-cutting-permits', 'hundred-yo-trees'], ops: READ },
      { entities: [REPORTS], ops: ['read', 'readAlso', 'export'] },
      {
        entity: REPORTS,
        workflow: [
          'take',
          'recalculate',
          'accept',
          'accept-by-area',
          'reject',
          'mark-invalid',
          'cancel-invalid',
          'return-to-new',
          'send-to-headquarters',
          'send-to-police',
          'send-for-review',
        ],
      },
      { entities: ['expertise-requests-data'], ops: READ },
      { entity: 'expertise-requests-data', workflow: ['review', 'approve', 'reject'] },
      { entities: ['offences'], ops: WORK },
      { entity: 'offences', rows: ['own'] },
      { entity: 'offences', workflow: ['send-for-review'] },
      { routes: [OFFENCES_MAP] },
      { entities: ['people-facts'], ops: READ },
      { entity: 'people-facts', rows: ['assigned'] },
      { entity: 'people-facts', workflow: ['reject', 'to-offence'] },
      { reports: (r) => r.module === 'ecofund-offence-reports' },
      { routes: [CALCULATOR] },
      { entities: ['control-zone'], ops: READ },
      { entities: ['control-zone-field-values', 'given-permits'], ops: WORK },
      { entity: 'given-permits', workflow: ['extend-validity', 'terminate-validity'] },
      { entities: ['offences', 'people-facts', 'given-permits', 'tree-cutting-violations'], ops: ['personal'] },
    ],
    notes: [
      'Personal data in clear (docs/personal-data.md): of the offences and people facts they handle (offenders, witnesses, informants), of the permits they issue and of the illegal felling they record; the rest (payments, subjects) they read masked.',
      "Control zones: the zones (and the folders and fields that shape their forms, reference books) are the administrator's; the inspector reads the zones of their region and fills their values in the form generated from the fields (docs/control-zones.md). Given permits of the region are the inspector's to issue, extend and terminate.",
      "Reviewing a report is the whole review workflow short of the confirming staff's `confirm` and `return-to-inspector`: take, recalculate, accept (also by area), reject, mark invalid and cancel the mark, return to new, and escalate (headquarters, police, review).",
      'Reads the subjects, their payments and penya: what a reviewer checks a report against. Reads plantings, tree-cutting permits and old trees: what planting inspections and illegal felling point at.',
      'Ecological expertise requests (the spec does not say whose) are reviewed by the inspector, who works with the enterprises; the ecology staff work with trees.',
      "No report of the greening registry of its own (those are the ecology staff's and headquarters'); the public ones open to whoever reads plantings or the species book.",
      "Acts and protocols take their region from their subject (a subject of the inspector's region: another region's is \"not found\"); the engine checks the new row's scope after copying it.",
      'Offences: their own only (the `own` row set: `inspector_id` is the inspector, filled in on create), edited and deleted while a draft or returned to them; they send them for review (docs/offences.md).',
      'People facts: only those assigned to them (the `assigned` row set); they check them on the spot and turn them into a draft offence of their own, or reject them with a reason.',
    ],
  },
  {
    code: 'ecology_staff',
    name: { uz: 'Ekologiya xodimi', uk: 'Экология ходими', ru: 'Сотрудник экологии' },
    purpose:
      "Runs the region's greening registry: plantings and tree passports, planting plans and organisations, governor decisions, green streets, gardens and parks, trees over 100 years, resident planting areas, personal gardens, volunteers, tree-cutting permits and violations; moderates the public's plantings; the greening reports.",
    scope: 'region',
    grants: [
      { entities: domainBook, ops: READ },
      {
        entities: [
          'plantings',
          'planting-plans',
          'planting-orgs',
          'governor-decisions',
          'green-areas',
          'green-gardens',
          'green-parks',
          'public-parks',
          'green-streets',
          'hundred-yo-trees',
          'tree-cutting-permits',
          'tree-cutting-violations',
          'resident-planting-areas',
          'my-gardens',
          'volunteers',
        ],
        ops: WORK,
      },
      { entities: ['planting-inspections'], ops: READ },
      { entities: ['public-plantings'], ops: ['read', 'update', 'delete', 'export'] },
      { entity: 'public-plantings', workflow: ['approve', 'reject'] },
      { reports: (r) => r.module === 'ecofund-plantings' },
      { entities: ['my-gardens', 'volunteers', 'tree-cutting-permits', 'tree-cutting-violations'], ops: ['personal'] },
    ],
    notes: [
      "Personal data in clear (docs/personal-data.md): of the residents' gardens and the volunteers they work with, and of the applicants and violators of tree felling they register.",
      "The planting organisations book is the registry's own, so its staff keep it; the species book is national and read only.",
      "Planting inspections are the inspectors' findings: read only.",
      "Moderation of the public's plantings has no region scope in the metadata (`public-plantings` declares none), so a regional ecology user moderates every region's submissions.",
      "News (`publications`) is left to the administrator: the spec names no role for the site's content.",
    ],
  },
  {
    code: 'headquarters',
    name: { uz: 'Shtab xodimi', uk: 'Штаб ходими', ru: 'Сотрудник штаба' },
    purpose:
      'Headquarters (shtab): read and export everything outside administration, every report, and decide the compensation reports escalated to them.',
    scope: 'none',
    grants: [
      { entities: (e) => !isAdminModule(e) || SHARED_BOOKS_IN_ADMIN_MODULES.includes(e.name), ops: ['read', 'readAlso', 'export'] },
      { reports: () => true },
      { routes: [CALCULATOR, OFFENCES_MAP] },
      { entity: REPORTS, workflow: ['accept', 'reject', 'mark-invalid', 'cancel-invalid', 'return-to-inspector', 'send-to-police'] },
      // the chat's operators (docs/chat.md): answer, mark read and close the public's chats
      { routes: ['notification/operator-chat'] },
      { entities: ['chats'], ops: ['update'] },
      { entities: ['messages'], ops: ['create'] },
      { entity: 'chats', workflow: ['close'] },
    ],
    notes: [
      "The chat's operators: the spec names no operator role, and the public's questions reach the fund as a whole (a visitor has no region), so headquarters answer them; an administrator may open the same actions to another role on the access-managing screen.",
      '"Take the reports escalated to them": the workflow cannot be limited to rows with `escalated_to = headquarters` (a role has no row condition of its own), so headquarters may decide any report; their queue is the inspector-report route filtered on `escalated_to`.',
      'Read is by rule (every entity outside the managing, access and admin modules, and every report), so new modules are read by headquarters as soon as they exist.',
    ],
  },
  {
    code: 'confirming_staff',
    name: { uz: 'Tasdiqlovchi xodim', uk: 'Тасдиқловчи ходим', ru: 'Подтверждающий сотрудник' },
    purpose:
      "The second pair of eyes of a region's fund: confirms attached payments (and cancels a confirmation), accepts and confirms compensation reports or returns them to the inspector.",
    scope: 'region',
    grants: [
      { entities: domainBook, ops: READ },
      { entities: ['payments'], ops: ['read', 'readAlso', 'export'] },
      { entity: 'payments', workflow: ['confirm', 'cancel-confirmed'] },
      { entities: ['stack-payments', 'subject', 'penya'], ops: READ },
      { entities: [REPORTS], ops: ['read', 'readAlso', 'export'] },
      { entity: REPORTS, workflow: ['accept', 'accept-by-area', 'confirm', 'return-to-inspector'] },
      { entities: ['offences'], ops: READ },
      { entity: 'offences', workflow: ['return-to-inspector', 'send-to-mvd', 'close'] },
      { routes: [OFFENCES_MAP] },
      { reports: (r) => r.module === 'ecofund-offence-reports' },
      { entities: ['offences-payment'], ops: READ },
      { entity: 'offences-payment', workflow: ['confirm', 'cancel-confirmed'] },
      { entities: ['people-facts'], ops: ['read', 'create', 'update', 'export'] },
      { entity: 'people-facts', workflow: ['take', 'assign', 'reject', 'to-offence'] },
      { entities: ['inspectors'], ops: ['read'] },
      { routes: [CALCULATOR] },
      { entities: ['offences', 'people-facts'], ops: ['personal'] },
    ],
    notes: [
      "Personal data in clear (docs/personal-data.md): of the offences they review and send to the interior ministry, and of the people facts' informants they call back; payments and subjects they read masked.",
      "A region's staff (the spec does not say): confirming is a check on the region's own fund staff, and headquarters already see every region.",
      'Cancelling a confirmed payment undoes its budget/fund split, so it stays with the confirming staff, not with the fund user who attached it.',
      "Reviews the region's offences sent for review: returns them to the inspector, sends them to the interior ministry, or closes them; confirms fine payments (the same second pair of eyes as for payments).",
      "Reviews the region's people facts (the offences' reviewer): takes them, assigns them to one of the region's inspectors (choosing among the staff users of the region: the `inspectors` list), rejects them with a reason or turns them into a draft offence; types in a fact received by phone or letter.",
      "Bank statements have no region in the metadata (`stack-payments` declares no scope): every region's confirming staff see every statement, and in it only their region's payments.",
    ],
  },
  {
    code: 'population',
    name: { uz: 'Aholi foydalanuvchisi', uk: 'Аҳоли фойдаланувчиси', ru: 'Пользователь из населения' },
    purpose:
      'A resident: registers their own garden and signs up as a volunteer; sees the areas of their region where residents may plant; reports what they saw (people facts) and follows their own reports.',
    scope: 'region',
    grants: [
      { entities: ['my-gardens', 'volunteers'], ops: ['read', 'create'] },
      { entity: 'my-gardens', rows: ['own'] },
      { entity: 'volunteers', rows: ['own'] },
      { entities: ['resident-planting-areas'], ops: ['read'] },
      { entities: ['people-facts'], ops: ['read', 'create'] },
      { entity: 'people-facts', rows: ['own'] },
      { entities: ['suggestion'], ops: ['read', 'create'] },
      { entity: 'suggestion', rows: ['own'] },
      // their own rows only (the `own` row sets): a resident reads back what they typed
      { entities: ['my-gardens', 'volunteers', 'people-facts', 'suggestion'], ops: ['personal'] },
    ],
    notes: [
      "Gardens and volunteering: registers them and reads back only their own (the `own` row sets: the garden's `owner_user_id`, the volunteer's `user_id`, filled in on create) — \"my gardens\" on the public site; never the region's list, which holds other residents' names and phones, nor edits of what they sent.",
      'Resident planting areas are public data; reading them gives the resident a menu.',
      'People facts: sends them and reads only their own (the `own` row set: the informant user, filled in on create), in their own region; never edits or deletes one once sent.',
      "Suggestions: sends them (from the back-office or the public site's form while signed in, then the answer may come in the back-office) and reads only their own (the `own` row set) with the staff's answer.",
    ],
  },
  {
    code: 'police',
    name: { uz: 'IIV foydalanuvchisi', uk: 'ИИВ фойдаланувчиси', ru: 'Пользователь МВД' },
    purpose:
      'An interior-ministry (police) officer of a region: the compensation reports sent to the police, the subjects they are about, and illegal felling.',
    scope: 'region',
    grants: [
      { entities: domainBook, ops: READ },
      { entities: [REPORTS, 'subject', 'tree-cutting-violations'], ops: READ },
      { entities: ['offences'], ops: READ },
      { entity: 'offences', rows: ['mvd'] },
      { entity: 'offences', workflow: ['mvd-result', 'mvd-close', 'mvd-return'] },
      // the offences sent to them (the `mvd` row set) and the violations: finding the offender is their work
      { entities: ['offences', 'tree-cutting-violations'], ops: ['personal'] },
      { routes: [OFFENCES_MAP] },
    ],
    notes: [
      'Offences: only those sent to the ministry in their region (the `mvd` row set), also after they close or return them; they record the result (offender found, fine enforced, returned) and close or return them, also through `mvd/...`.',
      'The metadata cannot yet narrow the police to the reports sent to them: they read every report of their region and find theirs with the `escalated_to` filter. A view entity over `subject_reports` with `view: {escalated_to: "police"}` would let this role read only those.',
      "Read only: deciding a report is the fund's and headquarters' work. Reading violations also opens the tree-cutting permits (both share action 2098).",
    ],
  },
  {
    code: 'fund',
    name: { uz: 'Jamgʻarma xodimi', uk: 'Жамғарма ходими', ru: 'Сотрудник фонда' },
    purpose:
      "A region's fund staff: subjects, bank statements and their import, payments (attach, confirm), penya, the ecological calculator; accepts or rejects the region's compensation reports; reads acts, protocols, expertise and branch plans.",
    scope: 'region',
    grants: [
      { entities: domainBook, ops: READ },
      { entities: ['subject'], ops: ['read', 'create', 'update', 'export'] },
      { entity: 'subject', workflow: ['suspend', 'resume', 'stop', 'reactivate', 'make-main', 'attach-as-branch'] },
      { entities: ['stack-payments'], ops: ['read', 'create', 'update', 'export'] },
      { entities: ['payments'], ops: ['read', 'readAlso', 'create', 'update', 'export'] },
      { entity: 'payments', workflow: ['attach', 'cancel-attachment', 'confirm'] },
      { entities: ['penya'], ops: WORK },
      { entities: [REPORTS], ops: ['read', 'readAlso', 'export'] },
      {
        entity: REPORTS,
        workflow: ['take', 'recalculate', 'accept', 'accept-by-area', 'reject', 'return-to-new', 'send-to-headquarters', 'send-for-review'],
      },
      { entities: ['stack-akts', 'subject-akts', 'stack-protocols', 'subject-protocols', 'expertise-requests-data'], ops: READ },
      { entities: ['branchs-plans'], ops: ['read', 'readAlso', 'export'] },
      { entities: ['offences'], ops: READ },
      { entities: ['offences-payment'], ops: ['read', 'create', 'update', 'export'] },
      { entity: 'offences-payment', workflow: ['attach', 'attach-by-decree', 'cancel-attachment'] },
      { entities: ['people-facts'], ops: READ },
      { entity: 'people-facts', workflow: ['pay-incentive'] },
      // a payer's PINFL is how a payment is matched to its payer; a subject's card is theirs to keep
      { entities: ['payments', 'offences-payment', 'subject'], ops: ['personal'] },
      { routes: [CALCULATOR, OFFENCES_MAP] },
    ],
    notes: [
      'Importing a statement needs `update` of the statement and `create` of payments; a payment typed in by hand (cash) is the same `create`.',
      'No deletions of subjects, statements or payments: the spec\'s "full deletion" of a subject, and removing money records, are the administrator\'s.',
      'Reports are written by the subjects; the fund decides them and does not create them.',
      "Penya and hand-typed payments take their region from their subject; a payment with no subject yet (imported or typed in) is the region's own, so its fund user sees and attaches it.",
      "Fine payments: takes them from the statements and attaches them to the region's offences by decree number or by hand (reading the offences to find them); confirming them is the confirming staff's.",
      "People facts: reads the region's and marks an informant's recorded incentive paid out (money leaving the fund is the fund's).",
    ],
  },
  {
    code: 'branch',
    name: { uz: 'Filial foydalanuvchisi', uk: 'Филиал фойдаланувчиси', ru: 'Пользователь филиала' },
    purpose: "A fund branch: keeps its own branch's plans (quarterly and yearly).",
    scope: 'branch',
    grants: [{ entities: ['branchs-plans'], ops: ['read', 'readAlso', 'create', 'update', 'delete', 'export'] }],
    notes: ['Limited by `users.branch_id` alone: a branch plan takes its region from its branch.'],
  },
  {
    code: 'subject',
    name: { uz: 'Subyekt', uk: 'Субъект', ru: 'Субъект' },
    purpose:
      'An enterprise: reads its own card, payments, acts, protocols and penya; creates, fills, signs and sends its own compensation reports; submits expertise requests; uses the calculator.',
    scope: 'subject',
    grants: [
      { entities: ['subject', 'payments', 'penya', 'subject-akts', 'subject-protocols'], ops: READ },
      // their own card and payments (the subject scope): their own data
      { entities: ['subject', 'payments'], ops: ['personal'] },
      { entities: [REPORTS], ops: ['read', 'create', 'update', 'export'] },
      { entity: REPORTS, workflow: ['send', 'recalculate'] },
      { entities: ['expertise-requests-data'], ops: ['read', 'create', 'export'] },
      { routes: [CALCULATOR] },
      { entities: ['given-permits'], ops: READ },
    ],
    notes: [
      "Limited by `users.subject_id`: its own rows only, and its reports are always its own (another subject's id is refused).",
      "Not the inspector-report and monitoring routes (`readAlso`): they are the staff's queues over the same rows.",
      "Its acts and protocols are tabs of its own subject page: their menu routes hang under an act stack, and the stacks (a region's inspection campaigns, with no subject scope) are the inspectors'.",
      "No delete of reports: a sent report is the fund's record; a mistaken one is returned to new by the fund.",
      "A report is edited only before it is sent (its workflow's `editable` states: new, rejected); after that only its actions move it.",
      "A subject user is bound to its subject by the user's `subject_id` (the users screen, `ecofond user:create --subject <id>`, or the demo seed).",
    ],
  },
  {
    code: 'administrator',
    name: { uz: 'Administrator', uk: 'Администратор', ru: 'Администратор' },
    purpose: 'Runs the system: users, roles and access, settings, logs, the action catalogue, site content — and may do everything else.',
    scope: 'none',
    all: true,
    grants: [],
    notes: ['Every action of the catalogue, including those added later: the seed grants each new id on its next run.'],
  },
];

type Use =
  | { kind: 'entity'; entity: EntityMeta; op: Operation }
  | { kind: 'workflow'; entity: EntityMeta; action: string }
  | { kind: 'rows'; entity: EntityMeta; rows: string }
  | { kind: 'route'; route: string; entity?: string }
  | { kind: 'report'; report: string };

/** Every use of every action id in the metadata: an entity's operation, a workflow action, a menu route, a report. */
export function actionUses(model: MetaModel): Map<number, Use[]> {
  const uses = new Map<number, Use[]>();
  const add = (id: number | undefined, u: Use) => {
    if (id !== undefined) uses.set(id, [...(uses.get(id) ?? []), u]);
  };
  for (const e of model.entities.values()) {
    for (const op of ['read', 'create', 'update', 'delete', 'export'] as const) add(e.access[op], { kind: 'entity', entity: e, op });
    for (const id of e.access.readAlso ?? []) add(id, { kind: 'entity', entity: e, op: 'readAlso' });
    for (const [name, a] of Object.entries(e.workflow?.actions ?? {})) add(a.action, { kind: 'workflow', entity: e, action: name });
    for (const [name, r] of Object.entries(e.rows ?? {})) add(r.action, { kind: 'rows', entity: e, rows: name });
  }
  for (const s of model.menu)
    for (const c of s.children) add(c.action, { kind: 'route', route: routePath(s.route, c.route), entity: c.entity });
  for (const r of model.reports.values()) add(r.access, { kind: 'report', report: r.name });
  return uses;
}

/**
 * The administrator's own action ids: every operation and workflow action of the entities of the
 * managing, access and admin modules (the shared books' read and export aside), and the menu
 * routes of those sections. An id used there is never given to another role, even when it is also
 * used elsewhere (one action id may guard two things).
 */
export function administratorOnlyActions(model: MetaModel): Set<number> {
  const out = new Set<number>();
  for (const [id, uses] of actionUses(model)) {
    for (const u of uses) {
      if (u.kind === 'entity' || u.kind === 'workflow' || u.kind === 'rows') {
        const shared =
          u.kind === 'entity' && SHARED_BOOKS_IN_ADMIN_MODULES.includes(u.entity.name) && (u.op === 'read' || u.op === 'export');
        if (isAdminModule(u.entity) && !shared) out.add(id);
      } else if (u.kind === 'route') {
        const section = u.route.split('/')[0];
        if (ADMIN_MODULES.includes(section) && !(u.entity && SHARED_BOOKS_IN_ADMIN_MODULES.includes(u.entity))) out.add(id);
      }
    }
  }
  return out;
}

/** A menu route as grants name it: `section/route` (`ecofund/ecologic-calculator`). */
export const routePath = (section: string, route: string): string => `${section.replace(/^\//, '')}/${route.replace(/\/$/, '')}`;

const opIds = (e: EntityMeta, op: Operation): number[] =>
  op === 'readAlso' ? (e.access.readAlso ?? []) : e.access[op] === undefined ? [] : [e.access[op]!];

/** The action ids one grant names (names the metadata does not have give nothing; see `unknownGrantNames`). */
function grantActions(g: Grant, model: MetaModel): number[] {
  if ('ops' in g) {
    const entities =
      typeof g.entities === 'function'
        ? [...model.entities.values()].filter((e) => (g.entities as (e: EntityMeta, m: MetaModel) => boolean)(e, model))
        : g.entities.map((n) => model.entities.get(n)).filter((e): e is EntityMeta => !!e);
    return entities.flatMap((e) => g.ops.flatMap((op) => opIds(e, op)));
  }
  if ('rows' in g) {
    const sets = model.entities.get(g.entity)?.rows ?? {};
    return g.rows.map((n) => sets[n]?.action).filter((id): id is number => id !== undefined);
  }
  if ('workflow' in g) {
    const actions = model.entities.get(g.entity)?.workflow?.actions ?? {};
    return g.workflow.map((n) => actions[n]?.action).filter((id): id is number => id !== undefined);
  }
  if ('routes' in g) {
    const routes = new Map<string, number | undefined>(
      model.menu.flatMap((s) => s.children.map((c) => [routePath(s.route, c.route), c.action] as const)),
    );
    return g.routes.map((r) => routes.get(r)).filter((id): id is number => id !== undefined);
  }
  const reports =
    typeof g.reports === 'function'
      ? [...model.reports.values()].filter(g.reports)
      : g.reports.map((n) => model.reports.get(n)).filter((r): r is ReportMeta => !!r);
  return reports.map((r) => r.access).filter((id): id is number => id !== undefined);
}

/** The entities a role's grants give some operation of. */
function grantedEntities(role: SystemRole, model: MetaModel): EntityMeta[] {
  const ids = new Set(role.grants.flatMap((g) => ('ops' in g || 'workflow' in g || 'rows' in g ? grantActions(g, model) : [])));
  return [...model.entities.values()].filter(
    (e) =>
      (['read', 'create', 'update', 'delete', 'export', 'readAlso'] as const).some((op) => opIds(e, op).some((id) => ids.has(id))) ||
      Object.values(e.workflow?.actions ?? {}).some((a) => ids.has(a.action)),
  );
}

/**
 * Read of the reference books the role's entities point at (their fields, child rows and workflow
 * parameters), so that its lists show names and its forms offer choices, not bare ids.
 */
function referencedBooks(role: SystemRole, model: MetaModel): number[] {
  const names = new Set<string>();
  const collect = (fields: Record<string, { type: string; ref?: string; fields?: Record<string, unknown> }>) => {
    for (const f of Object.values(fields)) {
      if ((f.type === 'ref' || f.type === 'refs') && f.ref) names.add(f.ref);
      if (f.fields) collect(f.fields as typeof fields);
    }
  };
  for (const e of grantedEntities(role, model)) {
    collect(e.fields as never);
    for (const a of Object.values(e.workflow?.actions ?? {})) if (a.params) collect(a.params as never);
  }
  return [...names]
    .map((n) => model.entities.get(n))
    .filter((e): e is EntityMeta => !!e && e.kind === 'reference')
    .map((e) => e.access.read);
}

/**
 * The action ids of a role in this metadata: the administrator every id of the catalogue; any
 * other role the ids its grants name, plus read of the reference books its entities point at,
 * less the administrator's own ids.
 */
export function roleActions(role: SystemRole, model: MetaModel): number[] {
  if (role.all) return [...model.actions.keys()].sort((a, b) => a - b);
  const adminOnly = administratorOnlyActions(model);
  const ids = new Set([...role.grants.flatMap((g) => grantActions(g, model)), ...referencedBooks(role, model)]);
  return [...ids].filter((id) => model.actions.has(id) && !adminOnly.has(id)).sort((a, b) => a - b);
}

/** Names the grants use that the metadata does not have (a typo, or something renamed): `role: what`. */
export function unknownGrantNames(model: MetaModel): string[] {
  const out: string[] = [];
  const routes = new Set<string>(model.menu.flatMap((s) => s.children.map((c) => `${s.route.slice(1)}/${c.route.replace(/\/$/, '')}`)));
  for (const role of SYSTEM_ROLES) {
    for (const g of role.grants) {
      if ('ops' in g && Array.isArray(g.entities))
        for (const n of g.entities) {
          if (!model.entities.has(n)) out.push(`${role.code}: entity ${n}`);
        }
      if ('rows' in g) {
        const sets = model.entities.get(g.entity)?.rows;
        for (const n of g.rows) if (!sets?.[n]) out.push(`${role.code}: row set ${g.entity} ${n}`);
      }
      if ('workflow' in g) {
        const actions = model.entities.get(g.entity)?.workflow?.actions;
        if (!actions) out.push(`${role.code}: workflow of ${g.entity}`);
        else for (const n of g.workflow) if (!actions[n]) out.push(`${role.code}: workflow action ${g.entity} ${n}`);
      }
      if ('routes' in g) for (const r of g.routes) if (!routes.has(r)) out.push(`${role.code}: route ${r}`);
      if ('reports' in g && Array.isArray(g.reports))
        for (const n of g.reports) if (!model.reports.has(n)) out.push(`${role.code}: report ${n}`);
    }
  }
  return out;
}
