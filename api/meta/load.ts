import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import type {
  ReportMeta,
  RouteMeta,
  ActionInfo,
  EntityMeta,
  FieldMeta,
  FieldType,
  Lang,
  MenuSectionMeta,
  MetaModel,
  FilterMeta,
  PersonalKind,
} from './types.ts';
import { LANGS } from './types.ts';
import type { DbBook } from './types.ts';

export type { DbBook } from './types.ts';
import { flattenCaptions } from './captions.ts';
import { SYSTEM_COLUMNS, SYSTEM_REFS } from './columns.ts';
import { documentPathProblems } from './document-paths.ts';
import { REPORT_PAGING_PARAMS } from '../reports/params.ts';

export const DEFAULT_META_DIR = fileURLToPath(new URL('../../metadata/', import.meta.url));

/** Where a database-held book's problems are reported: a file-like name. */
export const bookFile = (name: string) => `database:books/${name}.json`;

/** One thing wrong with the metadata: the file, the JSON pointer inside it and the reason. */
export interface MetaProblem {
  file: string;
  pointer: string;
  message: string;
}

export class MetadataInvalid extends Error {
  constructor(public problems: MetaProblem[]) {
    super(`Metadata is invalid:\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'MetadataInvalid';
  }
}

export function formatProblem(p: MetaProblem): string {
  return `  ${p.file}: ${p.pointer || '/'}: ${p.message}`;
}

function ajvMessage(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'enum') return `${e.message}: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  return e.message ?? e.keyword;
}

function walkJson(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walkJson(p));
    else if (name.endsWith('.json')) out.push(p);
  }
  return out;
}

function readJson(path: string, rel: string, problems: MetaProblem[]): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    problems.push({ file: rel, pointer: '', message: `not valid JSON: ${(err as Error).message}` });
    return undefined;
  }
}

export function filterMeta(f: FilterMeta['op'] | FilterMeta): FilterMeta {
  return typeof f === 'string' ? { op: f } : f;
}

/** The caption key of a field: its own label, or the shared `fields.<name>`. */
export function fieldCaption(name: string, f: FieldMeta): string {
  return f.label ?? `fields.${name}`;
}

/**
 * Loads and validates the whole metadata tree. Throws MetadataInvalid with every problem found
 * (file, JSON pointer, reason), so that a bad file stops start-up with a readable message.
 */
export function loadMetadata(dir: string = DEFAULT_META_DIR, books: DbBook[] = []): MetaModel {
  const problems: MetaProblem[] = [];
  const rel = (p: string) => relative(join(dir, '..'), p) || p;
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, validateFormats: true });
  ajv.addFormat('regex', {
    validate: (s: string) => {
      try {
        new RegExp(s, 'u');
        return true;
      } catch {
        return false;
      }
    },
  });
  const entitySchema = JSON.parse(readFileSync(join(dir, 'schema/entity.schema.json'), 'utf8'));
  const menuSchema = JSON.parse(readFileSync(join(dir, 'schema/menu.schema.json'), 'utf8'));
  const validateEntity = ajv.compile(entitySchema);
  const validateMenu = ajv.compile(menuSchema);
  const validateReport = ajv.compile(JSON.parse(readFileSync(join(dir, 'schema/report.schema.json'), 'utf8')));
  const validateModule = ajv.compile(JSON.parse(readFileSync(join(dir, 'schema/module.schema.json'), 'utf8')));

  const entities = new Map<string, EntityMeta>();
  const tables = new Map<string, string>();
  const paths = new Map<string, string>();
  for (const path of walkJson(join(dir, 'entities'))) {
    const file = rel(path);
    const raw = readJson(path, file, problems) as Record<string, unknown> | undefined;
    if (raw === undefined) continue;
    if (!validateEntity(raw)) {
      for (const e of validateEntity.errors ?? []) problems.push({ file, pointer: e.instancePath, message: ajvMessage(e) });
      continue;
    }
    const entity = withDefaults(raw as unknown as EntityMeta, file);
    const dup = entities.get(entity.name);
    if (dup) {
      problems.push({ file, pointer: '/name', message: `entity "${entity.name}" is already defined in ${dup.file}` });
      continue;
    }
    if (tables.has(entity.table) && !entity.view)
      problems.push({
        file,
        pointer: '/table',
        message: `table "${entity.table}" is already used by ${tables.get(entity.table)} (a second entity on one table must be a view)`,
      });
    if (paths.has(entity.path))
      problems.push({ file, pointer: '/path', message: `path "${entity.path}" is already used by ${paths.get(entity.path)}` });
    entities.set(entity.name, entity);
    if (!entity.view) tables.set(entity.table, file);
    paths.set(entity.path, file);
  }

  // reference books held in the database (docs/reference-books.md): checked by the same schema and
  // second pass as a file; a book also written out as a file (meta:export) is one book, the database's
  for (const book of books) {
    const file = bookFile(book.name);
    const raw = book.definition;
    if (!validateEntity(raw)) {
      for (const e of validateEntity.errors ?? []) problems.push({ file, pointer: e.instancePath, message: ajvMessage(e) });
      continue;
    }
    const e = raw as unknown as EntityMeta;
    if (e.name !== book.name) {
      problems.push({ file, pointer: '/name', message: `the book is "${book.name}", its definition names "${e.name}"` });
      continue;
    }
    // every run-time book may be imported (one stored before `import` existed too)
    const entity: EntityMeta = { ...withDefaults(e, file), book: true, import: e.import ?? true };
    const own = entities.get(entity.name);
    if (own) {
      // the file of an exported book: the same table and path are the book's own
      if (own.book) {
        problems.push({ file, pointer: '/name', message: `entity "${entity.name}" is already defined in ${own.file}` });
        continue;
      }
      if (tables.get(own.table) === own.file) tables.delete(own.table);
      if (paths.get(own.path) === own.file) paths.delete(own.path);
      entities.delete(own.name);
    }
    if (tables.has(entity.table))
      problems.push({
        file,
        pointer: '/table',
        message: `table "${entity.table}" is already used by ${tables.get(entity.table)} (a second entity on one table must be a view)`,
      });
    if (paths.has(entity.path))
      problems.push({ file, pointer: '/path', message: `path "${entity.path}" is already used by ${paths.get(entity.path)}` });
    entities.set(entity.name, entity);
    tables.set(entity.table, file);
    paths.set(entity.path, file);
  }

  const reports = new Map<string, ReportMeta>();
  for (const path of walkJson(join(dir, 'reports'))) {
    const file = rel(path);
    const raw = readJson(path, file, problems) as Record<string, unknown> | undefined;
    if (raw === undefined) continue;
    if (!validateReport(raw)) {
      for (const e of validateReport.errors ?? []) problems.push({ file, pointer: e.instancePath, message: ajvMessage(e) });
      continue;
    }
    const r = { ...(raw as unknown as ReportMeta), file };
    const dup = reports.get(r.name);
    if (dup) problems.push({ file, pointer: '/name', message: `report "${r.name}" is already defined in ${dup.file}` });
    else reports.set(r.name, r);
  }

  const routes: RouteMeta[] = [];
  for (const path of walkJson(join(dir, 'modules'))) {
    const file = rel(path);
    const raw = readJson(path, file, problems) as Record<string, unknown> | undefined;
    if (raw === undefined) continue;
    if (!validateModule(raw)) {
      for (const e of validateModule.errors ?? []) problems.push({ file, pointer: e.instancePath, message: ajvMessage(e) });
      continue;
    }
    const m = raw as unknown as { module: string; routes: Omit<RouteMeta, 'module' | 'file' | 'auth'>[] & { auth?: RouteMeta['auth'] }[] };
    for (const r of m.routes as (Omit<RouteMeta, 'module' | 'file' | 'auth'> & { auth?: RouteMeta['auth'] })[]) {
      routes.push({ ...r, auth: r.auth ?? 'session', module: m.module, file });
    }
  }

  let menu: MenuSectionMeta[] = [];
  const menuPath = join(dir, 'menu.json');
  if (existsSync(menuPath)) {
    const raw = readJson(menuPath, rel(menuPath), problems) as { sections: MenuSectionMeta[] } | undefined;
    if (raw !== undefined) {
      if (!validateMenu(raw)) {
        for (const e of validateMenu.errors ?? []) problems.push({ file: rel(menuPath), pointer: e.instancePath, message: ajvMessage(e) });
      } else menu = raw.sections;
    }
  }

  const captions = {} as Record<Lang, Record<string, string>>;
  for (const lang of LANGS) {
    const p = join(dir, 'i18n', `${lang}.json`);
    const raw = readJson(p, rel(p), problems);
    captions[lang] = raw && typeof raw === 'object' ? flattenCaptions(raw as Record<string, unknown>) : {};
  }
  for (const book of books) {
    if (!entities.get(book.name)?.book) continue;
    for (const lang of LANGS) {
      for (const [key, text] of Object.entries(book.captions[lang] ?? {})) {
        if (typeof text !== 'string' || !text.trim())
          problems.push({
            file: bookFile(book.name),
            pointer: `/captions/${lang}/${key}`,
            message: `caption "${key}" is empty in ${lang}`,
          });
        else captions[lang][key] = text;
      }
    }
    if (book.menu) {
      const e = entities.get(book.name)!;
      const at = menu.findIndex((s) => s.route === `/${book.menu!.section}`);
      if (at < 0) {
        problems.push({ file: bookFile(book.name), pointer: '/menu/section', message: `no menu section "${book.menu.section}"` });
        continue;
      }
      const section = { ...menu[at], children: menu[at].children.filter((c) => c.entity !== book.name) };
      const ordering = book.menu.ordering ?? Math.max(0, ...section.children.map((c) => c.ordering ?? 0)) + 10;
      section.children.push({ route: book.name, caption: e.caption, action: e.access.read, entity: book.name, ordering });
      menu = menu.map((s, i) => (i === at ? section : s));
    }
  }

  const model: MetaModel = { entities, reports, routes, menu, captions, actions: new Map(), books, dir };
  checkSemantics(model, problems, rel(menuPath));
  if (problems.length) throw new MetadataInvalid(problems);
  return model;
}

/** Checks that cannot be said in JSON Schema: cross references, captions, action ids. */
function checkSemantics(model: MetaModel, problems: MetaProblem[], menuFile: string): void {
  const need = new Map<string, { file: string; pointer: string }>();
  const caption = (key: string, file: string, pointer: string) => {
    if (!need.has(key)) need.set(key, { file, pointer });
  };
  const cookies = new Map<string, string>();
  // one action id, one right: an id that lets a user change rows (create, update, delete, export, a
  // row set, a workflow action) belongs to that one operation of one entity — granting it must not
  // grant a second thing by accident. A read id may open several lists (the spec gives one id to a
  // route group), but never also a change.
  const owners = new Map<number, { what: string; read: boolean }>();
  const own = (id: number, what: string, read: boolean, file: string, pointer: string) => {
    const was = owners.get(id);
    if (!was) {
      owners.set(id, { what, read });
      return;
    }
    if (was.what === what || (was.read && read)) return;
    problems.push({
      file,
      pointer,
      message: `action id ${id} already gives ${was.what}: an id that changes rows belongs to one operation of one entity`,
    });
  };

  for (const e of model.entities.values()) {
    const file = e.file;
    const has = (name: string) => name in e.fields || SYSTEM_COLUMNS.includes(name);
    const hidden = (name: string) => e.fields[name]?.type === 'password';
    const unsortable = (name: string) => hidden(name) || !!e.fields[name]?.through || e.fields[name]?.type === 'children';
    caption(e.caption, file, '/caption');
    if (!(e.titleField in e.fields) && e.titleField !== 'id')
      problems.push({ file, pointer: '/titleField', message: `"${e.titleField}" is not a field` });
    checkFields(e.fields, '/fields', e, model, problems, caption);
    if (e.undeletable !== undefined && e.fields[e.undeletable]?.type !== 'boolean')
      problems.push({ file, pointer: '/undeletable', message: `"${e.undeletable}" must be a boolean field of ${e.name}` });
    if (e.public) checkPublic(e, problems);
    for (const d of documentPathProblems(model, e)) problems.push({ file, ...d });
    e.list.columns.forEach((c, i) => {
      // a bookkeeping column heads its list with the shared caption of its name
      if (!(c in e.fields) && SYSTEM_COLUMNS.includes(c)) caption(`fields.${c}`, file, `/list/columns/${i}`);
      if (!has(c)) problems.push({ file, pointer: `/list/columns/${i}`, message: `"${c}" is not a field of ${e.name}` });
      else if (hidden(c)) problems.push({ file, pointer: `/list/columns/${i}`, message: `"${c}" is a password and is never listed` });
    });
    if (!has(e.list.sort[0]) || unsortable(e.list.sort[0]))
      problems.push({ file, pointer: '/list/sort/0', message: `"${e.list.sort[0]}" is not a sortable field of ${e.name}` });
    (e.list.sortable ?? []).forEach((c, i) => {
      if (!has(c) || unsortable(c))
        problems.push({ file, pointer: `/list/sortable/${i}`, message: `"${c}" is not a sortable field of ${e.name}` });
    });
    if (e.list.cookie !== undefined) {
      // the schema says so too; said here again, the cookie's name is safe whatever the schema becomes
      if (!FILTER_COOKIE.test(e.list.cookie))
        problems.push({ file, pointer: '/list/cookie', message: `"${e.list.cookie}" is not a filter cookie name (filter_[a-z_]+)` });
      else if (cookies.has(e.list.cookie))
        problems.push({
          file,
          pointer: '/list/cookie',
          message: `cookie "${e.list.cookie}" already keeps the filter of ${cookies.get(e.list.cookie)}`,
        });
      else cookies.set(e.list.cookie, e.name);
    }
    for (const [name, raw] of Object.entries(e.list.filters ?? {})) {
      const f = filterMeta(raw);
      const cols = f.fields ?? [name];
      for (const c of cols) {
        if (!has(c)) problems.push({ file, pointer: `/list/filters/${name}`, message: `"${c}" is not a field of ${e.name}` });
        else if (e.fields[c]?.type === 'children' || hidden(c))
          problems.push({ file, pointer: `/list/filters/${name}`, message: `cannot filter on "${c}"` });
        else if (e.fields[c]?.through && f.op !== 'eq' && f.op !== 'in')
          problems.push({ file, pointer: `/list/filters/${name}`, message: `a join-table reference filters with eq or in` });
      }
      if (f.op !== 'search' && cols.length > 1)
        problems.push({ file, pointer: `/list/filters/${name}`, message: `only a search filter may look in several fields` });
      if (f.global && f.op !== 'search')
        problems.push({ file, pointer: `/list/filters/${name}`, message: `only a search filter may be global` });
      if (f.label) caption(f.label, file, `/list/filters/${name}/label`);
      else if (SYSTEM_COLUMNS.includes(name) && !(name in e.fields)) caption(`fields.${name}`, file, `/list/filters/${name}`);
      else if (!(name in e.fields)) caption(`filters.${name}`, file, `/list/filters/${name}`);
    }
    for (const [kind, col] of Object.entries(e.scope ?? {})) {
      if (!(col in e.fields) && col !== 'id')
        problems.push({ file, pointer: `/scope/${kind}`, message: `"${col}" is not a field of ${e.name}` });
    }
    for (const [i, c] of (e.constraints ?? []).entries()) {
      caption(c.message, file, `/constraints/${i}/message`);
      c.fields.forEach((f, j) => {
        if (!(f in e.fields))
          problems.push({ file, pointer: `/constraints/${i}/fields/${j}`, message: `"${f}" is not a field of ${e.name}` });
      });
    }
    (e.form?.sections ?? []).forEach((s, i) => {
      if (s.label) caption(s.label, file, `/form/sections/${i}/label`);
      s.fields.forEach((f, j) => {
        if (!(f in e.fields))
          problems.push({ file, pointer: `/form/sections/${i}/fields/${j}`, message: `"${f}" is not a field of ${e.name}` });
      });
    });
    if (e.tracking === false && (e.access.create !== undefined || e.access.update !== undefined)) {
      problems.push({ file, pointer: '/access', message: 'an entity without tracking columns is read and deleted only' });
    }
    for (const id of e.access.readAlso ?? []) {
      addAction(model, id, { caption: 'operations.read', module: e.module, kind: 'read', entityCaption: e.caption });
      own(id, `reading ${e.name}`, true, file, '/access/readAlso');
    }
    if (e.list.empty) caption(e.list.empty, file, '/list/empty');
    for (const [name, f] of Object.entries(e.fields)) if (f.empty) caption(f.empty, file, `/fields/${name}/empty`);
    for (const [name, r] of Object.entries(e.rows ?? {})) {
      for (const col of Object.keys(r.where))
        if (!(col in e.fields) && col !== 'id')
          problems.push({ file, pointer: `/rows/${name}/where/${col}`, message: `"${col}" is not a field of ${e.name}` });
      caption(r.label ?? `rows.${name}`, file, `/rows/${name}`);
      addAction(model, r.action, { caption: r.label ?? `rows.${name}`, module: e.module, kind: 'rows', entityCaption: e.caption });
      own(r.action, `the row set ${name} of ${e.name}`, false, file, `/rows/${name}/action`);
    }
    if (e.access.personal !== undefined) {
      // like reading, one id may open the personal fields of several entities
      addAction(model, e.access.personal, { caption: 'operations.personal', module: e.module, kind: 'personal', entityCaption: e.caption });
      own(e.access.personal, 'reading personal data in clear', false, file, '/access/personal');
    }
    for (const problem of personalProblems(e)) problems.push({ file, ...problem });
    for (const op of ['read', 'create', 'update', 'delete', 'export'] as const) {
      const id = e.access[op];
      if (id === undefined) continue;
      addAction(model, id, { caption: `operations.${op}`, module: e.module, kind: op, entityCaption: e.caption });
      own(id, `${op} on ${e.name}`, op === 'read', file, `/access/${op}`);
    }
    if (e.workflow) {
      const wf = e.workflow;
      const state = e.fields[wf.field];
      if (!state || state.type !== 'enum') {
        problems.push({ file, pointer: '/workflow/field', message: `"${wf.field}" must be an enum field of ${e.name}` });
      } else {
        const states = new Set(state.values);
        if (!states.has(wf.initial))
          problems.push({ file, pointer: '/workflow/initial', message: `"${wf.initial}" is not a value of ${wf.field}` });
        (wf.editable ?? []).forEach((st, i) => {
          if (!states.has(st))
            problems.push({ file, pointer: `/workflow/editable/${i}`, message: `"${st}" is not a value of ${wf.field}` });
        });
        for (const [name, a] of Object.entries(wf.actions)) {
          a.from.forEach((s, i) => {
            if (!states.has(s))
              problems.push({ file, pointer: `/workflow/actions/${name}/from/${i}`, message: `"${s}" is not a value of ${wf.field}` });
          });
          if (a.to && !states.has(a.to))
            problems.push({ file, pointer: `/workflow/actions/${name}/to`, message: `"${a.to}" is not a value of ${wf.field}` });
          caption(a.label ?? `actions.${name}`, file, `/workflow/actions/${name}`);
          if (a.prompt) caption(a.prompt, file, `/workflow/actions/${name}/prompt`);
          if (a.skip && (!wf.actions[a.skip] || wf.actions[a.skip].to || wf.actions[a.skip].signature)) {
            problems.push({
              file,
              pointer: `/workflow/actions/${name}/skip`,
              message: `"${a.skip}" must be an action of this workflow that keeps the state and asks no signature`,
            });
          }
          if (a.params) checkFields(a.params, `/workflow/actions/${name}/params`, e, model, problems, caption);
          if (a.delete && (a.to || a.set || a.clear || a.bulk || a.idempotent || a.signature)) {
            problems.push({
              file,
              pointer: `/workflow/actions/${name}/delete`,
              message: 'an action that deletes the row moves no state and sets nothing (no to, set, clear, bulk, idempotent or signature)',
            });
          }
          (a.removes ?? []).forEach((other, i) => {
            const pointer = `/workflow/actions/${name}/removes/${i}`;
            if (!a.delete) problems.push({ file, pointer, message: 'only an action that deletes the row names what goes with it' });
            else if (!model.entities.has(other)) problems.push({ file, pointer, message: `"${other}" is not an entity` });
          });
          for (const f of Object.keys(a.set ?? {}))
            if (!(f in e.fields))
              problems.push({ file, pointer: `/workflow/actions/${name}/set/${f}`, message: `"${f}" is not a field of ${e.name}` });
          if (a.notify?.to.scope && !e.scope?.[a.notify.to.scope])
            problems.push({
              file,
              pointer: `/workflow/actions/${name}/notify/to/scope`,
              message: `${e.name} declares no ${a.notify.to.scope} scope`,
            });
          (a.clear ?? []).forEach((f, i) => {
            if (!(f in e.fields))
              problems.push({ file, pointer: `/workflow/actions/${name}/clear/${i}`, message: `"${f}" is not a field of ${e.name}` });
          });
          addAction(model, a.action, {
            caption: a.label ?? `actions.${name}`,
            module: e.module,
            kind: 'workflow',
            entityCaption: e.caption,
          });
          // paired moves of one workflow (block / unblock, attach / cancel) may share their id
          own(a.action, `a workflow action of ${e.name}`, false, file, `/workflow/actions/${name}/action`);
        }
        for (const [name, q] of Object.entries(wf.queues ?? {})) {
          const at = `/workflow/queues/${name}`;
          q.states.forEach((s, i) => {
            if (!states.has(s)) problems.push({ file, pointer: `${at}/states/${i}`, message: `"${s}" is not a value of ${wf.field}` });
          });
          // a queue's action moves its rows on: it leaves from one of the queue's states to another state
          q.actions.forEach((n, i) => {
            const a = wf.actions[n];
            if (!a || !a.to || a.delete || !a.from.some((s) => q.states.includes(s) && s !== a.to))
              problems.push({
                file,
                pointer: `${at}/actions/${i}`,
                message: `"${n}" must be an action of this workflow that moves a row out of one of the queue's states`,
              });
          });
          // the dashboard links a queue to the list filtered on its states: the list must offer that filter
          const byState = e.list.filters?.[wf.field];
          const op = byState ? filterMeta(byState).op : undefined;
          if (op !== 'in' && !(op === 'eq' && q.states.length === 1))
            problems.push({
              file,
              pointer: `${at}/states`,
              message: `the list of ${e.name} must filter on ${wf.field} ("in", or "eq" for one state) for the queue's link`,
            });
          caption(q.label ?? `queues.${name}`, file, at);
        }
      }
    }
  }

  model.menu.forEach((s, i) => {
    caption(s.caption, menuFile, `/sections/${i}/caption`);
    s.children.forEach((c, j) => {
      caption(c.caption, menuFile, `/sections/${i}/children/${j}/caption`);
      if (c.entity && !model.entities.has(c.entity))
        problems.push({ file: menuFile, pointer: `/sections/${i}/children/${j}/entity`, message: `no entity "${c.entity}"` });
      if (c.report && !model.reports.has(c.report))
        problems.push({ file: menuFile, pointer: `/sections/${i}/children/${j}/report`, message: `no report "${c.report}"` });
      if (c.report && c.entity)
        problems.push({
          file: menuFile,
          pointer: `/sections/${i}/children/${j}`,
          message: 'a route shows an entity or a report, not both',
        });
      if (c.action !== undefined) addAction(model, c.action, { caption: c.caption, module: s.route.slice(1), kind: 'menu' });
    });
  });

  for (const r of model.reports.values()) checkReport(r, model, problems, caption);
  checkRoutes(model, problems, caption);

  for (const [key, where] of need) {
    for (const lang of LANGS) {
      if (!(key in model.captions[lang]))
        problems.push({ file: where.file, pointer: where.pointer, message: `caption "${key}" is missing in i18n/${lang}.json` });
    }
  }
}

/** A report's params, columns, chart and drill name each other consistently; its query binds only declared params. */
function checkReport(
  r: ReportMeta,
  model: MetaModel,
  problems: MetaProblem[],
  caption: (key: string, file: string, pointer: string) => void,
): void {
  const file = r.file;
  caption(r.caption, file, '/caption');
  if (r.access === undefined && !r.public)
    problems.push({ file, pointer: '/access', message: 'a report needs an action id unless it is public' });
  if (r.access !== undefined) addAction(model, r.access, { caption: r.caption, module: r.module, kind: 'report' });
  const columns = new Set(r.columns.map((c) => c.name));
  for (const [name, p] of Object.entries(r.params)) {
    if (BUILT_IN_REPORT_PARAMS.includes(name))
      problems.push({ file, pointer: `/params/${name}`, message: `"${name}" is bound by the engine` });
    if (REPORT_PAGING_PARAMS.includes(name))
      problems.push({ file, pointer: `/params/${name}`, message: `"${name}" is the engine's paging parameter` });
    if (p.type === 'ref' && (!p.ref || (!model.entities.has(p.ref) && !SYSTEM_REFS.includes(p.ref))))
      problems.push({ file, pointer: `/params/${name}/ref`, message: `no entity "${p.ref ?? ''}"` });
    if (p.type === 'enum' && !p.values)
      problems.push({ file, pointer: `/params/${name}/values`, message: 'an enum parameter lists its values' });
    caption(p.caption ?? `report.${name}`, file, `/params/${name}`);
    if (p.type === 'enum') for (const v of p.values ?? []) caption(`report.${name}_${v}`, file, `/params/${name}/values`);
  }
  for (const [kind, param] of Object.entries(r.scope ?? {}))
    if (!(param in r.params)) problems.push({ file, pointer: `/scope/${kind}`, message: `"${param}" is not a parameter` });
  if (r.query.includes('::'))
    problems.push({
      file,
      pointer: '/query',
      message: "write casts as CAST(x AS type): after a :name binding, '::type' would be read as another binding",
    });
  if (r.query.includes('?'))
    problems.push({
      file,
      pointer: '/query',
      message: "'?' is a positional binding; use :name parameters (and jsonb functions instead of the ? operators)",
    });
  for (const m of r.query.matchAll(/(?<![:\w]):([a-z_][a-z0-9_]*)\b(?!:)/g)) {
    if (!(m[1] in r.params) && !BUILT_IN_REPORT_PARAMS.includes(m[1]))
      problems.push({ file, pointer: '/query', message: `":${m[1]}" is not a parameter` });
  }
  r.columns.forEach((c, i) => {
    caption(c.caption ?? `report.${c.name}`, file, `/columns/${i}`);
    if (c.total && typeof c.total === 'object')
      for (const n of c.total.ratio)
        if (!columns.has(n)) problems.push({ file, pointer: `/columns/${i}/total`, message: `"${n}" is not a column` });
  });
  if (r.chart) {
    if (!columns.has(r.chart.label)) problems.push({ file, pointer: '/chart/label', message: `"${r.chart.label}" is not a column` });
    r.chart.series.forEach((s, i) => {
      if (!columns.has(s)) problems.push({ file, pointer: `/chart/series/${i}`, message: `"${s}" is not a column` });
    });
  }
  if (r.drill) {
    if (!columns.has(r.drill.column)) problems.push({ file, pointer: '/drill/column', message: `"${r.drill.column}" is not a column` });
    for (const [k, v] of Object.entries(r.drill.params)) {
      if (v.startsWith('$') && !(v.slice(1) in r.params))
        problems.push({ file, pointer: `/drill/params/${k}`, message: `"${v.slice(1)}" is not a parameter` });
    }
  }
}

/** What an entity shows the public names its own fields, and its map layer a point or polygon. */
function checkPublic(e: EntityMeta, problems: MetaProblem[]): void {
  const pub = e.public!;
  const file = e.file;
  const fields = new Set(pub.fields);
  pub.fields.forEach((f, i) => {
    if (!(f in e.fields)) problems.push({ file, pointer: `/public/fields/${i}`, message: `"${f}" is not a field of ${e.name}` });
    else if (['password', 'children'].includes(e.fields[f].type))
      problems.push({ file, pointer: `/public/fields/${i}`, message: `"${f}" cannot be public` });
  });
  for (const col of Object.keys(pub.where ?? {}))
    if (!(col in e.fields)) problems.push({ file, pointer: `/public/where/${col}`, message: `"${col}" is not a field of ${e.name}` });
  (pub.filters ?? []).forEach((f, i) => {
    const filter = e.list.filters?.[f];
    if (!filter) problems.push({ file, pointer: `/public/filters/${i}`, message: `"${f}" is not a list filter of ${e.name}` });
    else
      for (const c of filterMeta(filter).fields ?? [f])
        if (!fields.has(c)) problems.push({ file, pointer: `/public/filters/${i}`, message: `"${c}" is not a public field` });
  });
  (pub.totals ?? []).forEach((f, i) => {
    if (!fields.has(f)) problems.push({ file, pointer: `/public/totals/${i}`, message: `"${f}" is not a public field` });
    else if (!['integer', 'decimal', 'money'].includes(e.fields[f].type))
      problems.push({ file, pointer: `/public/totals/${i}`, message: `"${f}" is not a number field` });
  });
  if (pub.sort && !fields.has(pub.sort[0]) && pub.sort[0] !== 'id')
    problems.push({ file, pointer: '/public/sort/0', message: `"${pub.sort[0]}" is not a public field` });
  const map = pub.map;
  if (map) {
    const check = (key: 'point' | 'shape' | 'title' | 'kind', type?: string) => {
      const f = map[key];
      if (f === undefined) return;
      if (!fields.has(f)) problems.push({ file, pointer: `/public/map/${key}`, message: `"${f}" is not a public field` });
      else if (type && e.fields[f].type !== type)
        problems.push({ file, pointer: `/public/map/${key}`, message: `"${f}" is not a ${type} field` });
    };
    if (!map.point && !map.shape) problems.push({ file, pointer: '/public/map', message: 'a map layer needs a point or a shape' });
    check('point', 'point');
    check('shape', 'polygon');
    check('title');
    check('kind');
  }
}

/**
 * Module routes: full paths (an entity's own relative to its path), unique with their method; an
 * operation the entity has, fields it writes that exist, every path parameter declared, and an
 * action id the catalogue knows.
 */
function checkRoutes(model: MetaModel, problems: MetaProblem[], caption: (key: string, file: string, pointer: string) => void): void {
  const seen = new Map<string, string>();
  model.routes.forEach((r) => {
    const at = model.routes.filter((x) => x.file === r.file).indexOf(r);
    const pointer = `/routes/${at}`;
    const problem = (sub: string, message: string) => problems.push({ file: r.file, pointer: pointer + sub, message });
    const e = r.entity ? model.entities.get(r.entity) : undefined;
    if (r.entity && !e) problem('/entity', `no entity "${r.entity}"`);
    if (!r.path.startsWith('/')) {
      if (!e) {
        if (!r.entity) problem('/path', "a path under an entity's needs the entity");
        return;
      }
      r.path = `${e.path}/${r.path}`;
    }
    const key = `${r.method.toUpperCase()} ${r.path.replace(/:[A-Za-z_]\w*/g, ':')}`;
    if (seen.has(key)) problem('/path', `${key} is already a route of ${seen.get(key)}`);
    seen.set(key, r.file);
    if (e && (r.op ?? '').startsWith('wf:') && !e.workflow?.actions[r.op!.slice(3)])
      problem('/op', `${e.name} has no workflow action "${r.op!.slice(3)}"`);
    if (r.op && !e) problem('/op', 'an operation needs the entity');
    if (r.auth === 'public' && (r.action !== undefined || r.op !== undefined)) problem('/auth', 'a public route needs no action');
    if (r.reads === 'replica' && (r.method !== 'get' || r.writes?.length))
      problem('/reads', 'only a GET that writes nothing may read from the replica');
    (r.writes ?? []).forEach((f, i) => {
      if (!e?.fields[f]) problem(`/writes/${i}`, `"${f}" is not a field of ${r.entity ?? "the route's entity"}`);
    });
    const inPath = [...r.path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]);
    for (const p of inPath) if (p !== 'id' && !r.params?.[p]) problem('/params', `path parameter ":${p}" is not declared`);
    for (const p of Object.keys(r.params ?? {})) {
      if (!inPath.includes(p)) problem(`/params/${p}`, `":${p}" is not in the path`);
      caption(fieldCaption(p, r.params![p]), r.file, `${pointer}/params/${p}`);
    }
    if (r.caption) caption(r.caption, r.file, `${pointer}/caption`);
    if (r.action !== undefined && !model.actions.has(r.action)) {
      if (r.caption) addAction(model, r.action, { caption: r.caption, module: r.module, kind: 'route' });
      else problem('/action', `action ${r.action} is not in the catalogue: give the route a caption`);
    }
  });
}

/** The field types each kind of personal data may be held in. */
const PERSONAL_TYPES: Record<PersonalKind, FieldType[]> = {
  pinfl: ['string'],
  passport: ['string'],
  phone: ['string'],
  email: ['string'],
  address: ['string', 'text'],
  birthdate: ['date'],
  document: ['file', 'files', 'image'],
  name: ['string'],
};

/**
 * What a personal field (docs/personal-data.md) may not be: without the entity's `access.personal`
 * (nobody could read it in clear), of a type its kind is not kept in, open to the public, or a
 * list's sort (the order of masked values tells them); a name is not masked, so it may be sorted.
 */
function personalProblems(e: EntityMeta): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = [];
  const all: [string, string, FieldMeta][] = [];
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.personal) all.push([name, `/fields/${name}`, f]);
    if (f.type === 'children')
      for (const [cn, cf] of Object.entries(f.fields ?? {}))
        if (cf.personal) all.push([`${name}.${cn}`, `/fields/${name}/fields/${cn}`, cf]);
  }
  for (const [name, pointer, f] of all) {
    if (!PERSONAL_TYPES[f.personal!].includes(f.type))
      out.push({ pointer: `${pointer}/personal`, message: `personal "${f.personal}" is not kept in a ${f.type} field` });
    if (e.access.personal === undefined)
      out.push({
        pointer: `${pointer}/personal`,
        message: `${e.name} has personal fields: give it access.personal, the action that reads them in clear`,
      });
    if (e.public?.fields.includes(name)) out.push({ pointer: '/public/fields', message: `"${name}" is personal data and is never public` });
    if (f.personal !== 'name' && (e.list.sortable?.includes(name) || e.list.sort[0] === name))
      out.push({ pointer: '/list/sortable', message: `"${name}" is personal data: a list is not sorted by it` });
  }
  if (e.access.personal !== undefined && !all.length)
    out.push({ pointer: '/access/personal', message: `${e.name} has no personal field for access.personal to open` });
  return out;
}

/** The name of a list's filter cookie (spec §3: filter_subjects, filter_penya…). */
export const FILTER_COOKIE = /^filter_[a-z_]+$/;

/** Parameters every report query may use without declaring them. */
export const BUILT_IN_REPORT_PARAMS = ['lang', 'today', 'current_year'];

/** An entity as its file or book wrote it, with what it may leave out filled in: table, path, kind, title field. */
function withDefaults(e: EntityMeta, file: string): EntityMeta {
  return {
    ...e,
    table: e.table ?? e.name.replace(/-/g, '_'),
    path: e.path ?? `/${e.module}/${e.name}`,
    kind: e.kind ?? 'reference',
    titleField: e.titleField ?? ('name' in e.fields ? 'name' : Object.keys(e.fields)[0]),
    file,
  };
}

function addAction(model: MetaModel, id: number, info: ActionInfo): void {
  if (!model.actions.has(id)) model.actions.set(id, info);
}

function checkFields(
  fields: Record<string, FieldMeta>,
  base: string,
  e: EntityMeta,
  model: MetaModel,
  problems: MetaProblem[],
  caption: (key: string, file: string, pointer: string) => void,
): void {
  for (const [name, f] of Object.entries(fields)) {
    const pointer = `${base}/${name}`;
    if (SYSTEM_COLUMNS.includes(name))
      problems.push({ file: e.file, pointer, message: `"${name}" is a system column and cannot be declared` });
    caption(fieldCaption(name, f), e.file, pointer);
    if ((f.type === 'ref' || f.type === 'refs') && f.ref && !model.entities.has(f.ref) && !SYSTEM_REFS.includes(f.ref)) {
      problems.push({ file: e.file, pointer: `${pointer}/ref`, message: `no entity "${f.ref}"` });
    }
    if (f.type === 'enum') for (const v of f.values ?? []) caption(`enums.${name}.${v}`, e.file, `${pointer}/values`);
    if (f.type === 'children') {
      if (!base.startsWith('/fields') || base.includes('/fields/'))
        problems.push({ file: e.file, pointer, message: 'child tables cannot be nested' });
      checkFields(f.fields ?? {}, `${pointer}/fields`, e, model, problems, caption);
    }
    if (f.lookup) {
      const [target, column] = f.lookup.split('.');
      const t = model.entities.get(target);
      if (!t) problems.push({ file: e.file, pointer: `${pointer}/lookup`, message: `no entity "${target}"` });
      else if (!t.fields[column]?.unique)
        problems.push({ file: e.file, pointer: `${pointer}/lookup`, message: `"${column}" is not a unique field of ${target}` });
    }
    if (f.within) {
      const t = f.type === 'ref' ? model.entities.get(f.ref!) : undefined;
      if (!t) problems.push({ file: e.file, pointer: `${pointer}/within`, message: 'within is for a ref to an entity' });
      else if (base !== '/fields')
        problems.push({ file: e.file, pointer: `${pointer}/within`, message: "within is for an entity's own fields, not a child table's" });
      else {
        for (const [column, own] of Object.entries(f.within)) {
          const at = `${pointer}/within/${column}`;
          const mine = fields[own];
          const theirs = t.fields[column];
          if (!mine) problems.push({ file: e.file, pointer: at, message: `"${own}" is not a field beside "${name}"` });
          else if (own === name) problems.push({ file: e.file, pointer: at, message: `"${name}" cannot agree with itself` });
          const filter = t.list.filters?.[column];
          const op = typeof filter === 'string' ? filter : filter?.op;
          if (!theirs) problems.push({ file: e.file, pointer: at, message: `"${column}" is not a field of ${f.ref}` });
          else if (op !== 'eq')
            problems.push({
              file: e.file,
              pointer: at,
              message: `${f.ref} has no "eq" list filter "${column}" for the form to offer the rows that agree`,
            });
          // the two hold the same kind of value: a reference to the same entity (a district's region and the row's region), or values of one type
          if (mine && theirs) {
            if (theirs.type === 'ref' && (mine.type !== 'ref' || mine.ref !== theirs.ref))
              problems.push({ file: e.file, pointer: at, message: `"${own}" must be a ref to ${theirs.ref}, as ${f.ref}.${column} is` });
            else if (theirs.type !== 'ref' && (mine.type !== theirs.type || !['string', 'integer', 'enum', 'boolean'].includes(mine.type)))
              problems.push({
                file: e.file,
                pointer: at,
                message: `"${own}" (${mine.type}) cannot be compared with ${f.ref}.${column} (${theirs.type})`,
              });
          }
        }
      }
    }
    if (f.through && f.type !== 'refs')
      problems.push({ file: e.file, pointer: `${pointer}/through`, message: 'only refs may use a join table' });
    if (f.privilege === 'roles' && (f.type !== 'refs' || f.ref !== 'user-roles'))
      problems.push({ file: e.file, pointer: `${pointer}/privilege`, message: 'a field carrying roles refers to user-roles' });
    if (f.privilege === 'actions' && (f.type !== 'refs' || f.ref !== 'app-actions'))
      problems.push({ file: e.file, pointer: `${pointer}/privilege`, message: 'a field carrying actions refers to app-actions' });
    if (f.privilege && !base.startsWith('/fields'))
      problems.push({ file: e.file, pointer: `${pointer}/privilege`, message: "only an entity's own field carries rights" });
    if ((f.parentKey || f.orderBy) && f.type !== 'children')
      problems.push({ file: e.file, pointer, message: 'parentKey and orderBy are for child tables' });
    if (f.orderBy && !(f.orderBy in (f.fields ?? {})))
      problems.push({ file: e.file, pointer: `${pointer}/orderBy`, message: `"${f.orderBy}" is not a field of the child table` });
    if (f.parentKey && !f.orderBy)
      problems.push({ file: e.file, pointer: `${pointer}/orderBy`, message: 'a child table without ordering needs orderBy' });
    if (f.type === 'json' && !f.readOnly && !f.form)
      problems.push({ file: e.file, pointer, message: 'a json field is written by the engine only: mark it readOnly (or give it a form)' });
    if (f.form && f.type !== 'json') problems.push({ file: e.file, pointer: `${pointer}/form`, message: 'only a json field holds a form' });
    if (f.form && fields[f.form.by]?.type !== 'ref')
      problems.push({ file: e.file, pointer: `${pointer}/form/by`, message: `"${f.form.by}" is not a reference field` });
    if (f.from) {
      const [refField, column] = f.from.split('.');
      const by = fields[refField];
      if (by?.type !== 'ref' && !by?.lookup)
        problems.push({ file: e.file, pointer: `${pointer}/from`, message: `"${refField}" is not a reference or lookup field` });
      else {
        const target = model.entities.get(by.lookup ? by.lookup.split('.')[0] : by.ref!);
        if (target && !(column in target.fields) && column !== 'id')
          problems.push({ file: e.file, pointer: `${pointer}/from`, message: `"${column}" is not a field of ${target.name}` });
      }
    }
  }
}

export { SYSTEM_REFS };
