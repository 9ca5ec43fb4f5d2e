import type { EntityMeta, FieldMeta, Lang, MenuSectionMeta, MetaModel } from './types.ts';
import { canOpenReport, forcedParams } from '../reports/params.ts';
import { fieldCaption, filterMeta } from './load.ts';
import { allows, OPERATIONS, type Principal } from '../auth/ability.ts';
import { FORMATS } from './formats.ts';
import { SYSTEM_COLUMNS } from './columns.ts';
import { mayCall, routeCatalogue } from './catalogue.ts';

/**
 * What `GET /api/meta` answers: the entities the caller may read with their fields, lists, forms
 * and workflows; the menu cut to the caller's actions; the API routes they may call (`api`, with
 * the rights each needs — with `?include=api`); and the captions of the caller's language.
 * This is the back-office's only input for generating its screens.
 */
export function clientMeta(model: MetaModel, p: Principal, lang: Lang, o: { api?: boolean } = {}) {
  const entities = [...model.entities.values()].filter((e) => allows(e, 'read', p)).map((e) => entityForClient(e, p));
  return {
    lang,
    entities,
    menu: menuFor(model.menu, p),
    routes: routesFor(model.menu, p),
    reports: reportsFor(model, p),
    // asked for (`?include=api`): the back-office does not need it on every start
    ...(o.api ? { api: routeCatalogue(model).filter((r) => mayCall(model, r, p)) } : {}),
    captions: model.captions[lang],
    fallbackCaptions: lang === 'uz' ? undefined : model.captions.uz,
  };
}

/** The reports the caller may open: parameters, columns, chart and drill-down, without the query. */
export function reportsFor(model: MetaModel, p: Principal) {
  return [...model.reports.values()]
    .filter((r) => canOpenReport(r, p))
    .map(({ query: _q, file: _f, ...r }) => {
      // a parameter the server fills from the caller's own region (or branch, subject) is marked fixed
      const forced = forcedParams(r, p);
      return {
        ...r,
        params: Object.fromEntries(
          Object.entries(r.params).map(([name, prm]) => [
            name,
            {
              ...prm,
              caption: prm.caption ?? `report.${name}`,
              ...(name in forced ? { fixed: forced[name] } : {}),
            },
          ]),
        ),
        columns: r.columns.map((c) => ({ ...c, caption: c.caption ?? `report.${c.name}` })),
      };
    });
}

function fieldForClient(name: string, f: FieldMeta): Record<string, unknown> {
  const out: Record<string, unknown> = { name, ...f, label: fieldCaption(name, f) };
  if (f.format) out.pattern = FORMATS[f.format].pattern;
  if (f.fields) out.fields = Object.entries(f.fields).map(([n, cf]) => fieldForClient(n, cf));
  return out;
}

function entityForClient(e: EntityMeta, p: Principal) {
  const can = Object.fromEntries(OPERATIONS.map((op) => [op, allows(e, op, p)]));
  return {
    name: e.name,
    module: e.module,
    path: `/api${e.path}`,
    kind: e.kind,
    caption: e.caption,
    icon: e.icon,
    titleField: e.titleField,
    fields: Object.entries(e.fields).map(([n, f]) => fieldForClient(n, f)),
    list: {
      ...e.list,
      perPage: e.list.perPage ?? 25,
      filters: Object.entries(e.list.filters ?? {}).map(([name, raw]) => {
        const f = filterMeta(raw);
        const field = e.fields[(f.fields ?? [name])[0]];
        return {
          name,
          ...f,
          label:
            f.label ??
            (e.fields[name] ? fieldCaption(name, e.fields[name]) : SYSTEM_COLUMNS.includes(name) ? `fields.${name}` : `filters.${name}`),
          fieldType: field?.type,
          ref: field?.ref,
          values: field?.values,
        };
      }),
    },
    form: e.form,
    access: e.access,
    can,
    // a boolean field whose true marks a row nobody deletes (a seeded role): the back-office offers no delete on it
    undeletable: e.undeletable,
    scope: e.scope,
    // rows may be imported from an .xlsx laid out as the export (POST <path>/import, for whoever may create them)
    import: e.import || undefined,
    // the record prints documents of this type (the paths its values come from stay on the server)
    documents: e.documents && { type: e.documents.type },
    workflow: e.workflow && {
      ...e.workflow,
      actions: Object.entries(e.workflow.actions).map(([name, a]) => ({
        name,
        ...a,
        label: a.label ?? `actions.${name}`,
        allowed: p.actions.has(a.action),
      })),
    },
  };
}

/** Items show when their action is allowed (or they have none); sections when a child shows; nomenu items never. */
export function menuFor(menu: MenuSectionMeta[], p: Principal) {
  return [...menu]
    .sort((a, b) => (a.ordering ?? 0) - (b.ordering ?? 0))
    .map((s) => ({
      ...s,
      children: s.children
        .filter((c) => !c.nomenu && (c.action === undefined || p.actions.has(c.action)))
        .sort((a, b) => (a.ordering ?? 0) - (b.ordering ?? 0)),
    }))
    .filter((s) => s.children.length > 0);
}

/**
 * Every back-office route of the menu tree, hidden ones included, with whether the caller may open
 * it: the back-office shows its 403 page for a known route that is not allowed.
 */
export function routesFor(menu: MenuSectionMeta[], p: Principal) {
  return menu.flatMap((s) =>
    s.children.map((c) => ({
      section: s.route,
      route: `${s.route}/${c.route.replace(/\/$/, '')}`,
      caption: c.caption,
      action: c.action,
      entity: c.entity,
      report: c.report,
      filter: c.filter,
      nomenu: c.nomenu ?? false,
      allowed: c.action === undefined || p.actions.has(c.action),
    })),
  );
}
