import type { EntityMeta, FieldMeta, MetaModel } from './types.ts';

/**
 * The paths a record's `documents.fields` read reserved values from (docs/template-documents.md):
 * `field` (a field of the record), `ref.column` (a column of the row a reference names, further
 * references followed up to three steps), `children.column` (a column of each child row, joined),
 * and `created_by` / `updated_by` (the user who made or last changed the record: `created_by.fio`).
 */
export type PathStep =
  | { kind: 'field'; name: string; field: FieldMeta }
  | { kind: 'ref'; name: string; table: string; entity?: EntityMeta }
  | { kind: 'children'; name: string; field: FieldMeta };

/** The users' fields a path may read through `created_by` / `updated_by`. */
const USER_FIELDS: Record<string, FieldMeta> = {
  fio: { type: 'string' },
  username: { type: 'string' },
  phone: { type: 'string' },
  email: { type: 'string' },
};
const USER_REFS = ['created_by', 'updated_by'];

/** The steps of a path in an entity, or the reason it names nothing. */
export function resolveDocumentPath(model: MetaModel, e: EntityMeta, path: string): PathStep[] | string {
  const parts = path.split('.');
  const steps: PathStep[] = [];
  let fields: Record<string, FieldMeta> = e.fields;
  let where = e.name;
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i];
    const last = i === parts.length - 1;
    if (i === 0 && USER_REFS.includes(name) && !(name in fields)) {
      if (last) return `"${name}" names a user: say which of its fields (${name}.fio)`;
      steps.push({ kind: 'ref', name, table: 'users', entity: model.entities.get('users') });
      fields = { ...USER_FIELDS };
      where = 'users';
      continue;
    }
    const f = fields[name];
    if (!f) return `"${name}" is not a field of ${where}`;
    if (f.type === 'password') return `"${name}" is never printed`;
    if (last) {
      if (f.type === 'children') return `"${name}" has rows: say which of their fields (${name}.<field>)`;
      if (['json', 'files', 'refs', 'polygon'].includes(f.type)) return `"${name}" (${f.type}) cannot be printed`;
      steps.push({ kind: 'field', name, field: f });
      return steps;
    }
    if (f.type === 'children') {
      if (steps.some((s) => s.kind === 'children')) return `"${name}": only one level of child rows`;
      steps.push({ kind: 'children', name, field: f });
      fields = f.fields ?? {};
      where = `${where}.${name}`;
      continue;
    }
    if (f.type !== 'ref' || !f.ref) return `"${name}" is not a reference: "${parts.slice(i + 1).join('.')}" cannot be read through it`;
    const target = model.entities.get(f.ref);
    if (!target) return `"${name}" refers to ${f.ref}, which has no fields to read`;
    steps.push({ kind: 'ref', name, table: target.table, entity: target });
    fields = target.fields;
    where = target.name;
  }
  return steps;
}

/** Each path of an entity's `documents.fields` names something printable (the loader's check). */
export function documentPathProblems(model: MetaModel, e: EntityMeta): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = [];
  for (const [code, path] of Object.entries(e.documents?.fields ?? {})) {
    const r = resolveDocumentPath(model, e, path);
    if (typeof r === 'string') out.push({ pointer: `/documents/fields/${code}`, message: r });
  }
  const w = e.documents?.withdrawnWhen;
  if (w) {
    const f = e.fields[w.field];
    if (!f || f.type !== 'enum')
      out.push({ pointer: '/documents/withdrawnWhen/field', message: `"${w.field}" is not an enum field of ${e.name}` });
    else
      for (const [i, v] of w.values.entries())
        if (!(f.values ?? []).includes(v))
          out.push({ pointer: `/documents/withdrawnWhen/values/${i}`, message: `"${v}" is not a value of "${w.field}"` });
  }
  return out;
}
