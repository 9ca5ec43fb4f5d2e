import type { ReactNode } from 'react';
import { nameOf, type Lang, type T } from '../i18n';
import type { Kind } from '../db';
import type { Reference, Row } from '../reference';
import type { Errors } from '../validate';
import { Field } from '../ui';

/**
 * What a form's own fields are drawn with (field/src/RecordForm.tsx holds the rest: the draft kept
 * in IndexedDB, the place, the photos, the device's check and the buttons). One form per file in
 * this folder, listed in forms/index.ts.
 */
export interface Kit {
  t: T;
  lang: Lang;
  ref: Reference | undefined;
  data: Record<string, unknown>;
  readOnly: boolean;
  errors: Errors;
  set: (k: string, v: unknown) => void;
  text: (k: string) => string;
  book: (name: string) => Row[];
  /** the districts of the region chosen */
  areas: Row[];
}

export interface FormDef {
  kind: Kind;
  /** the caption keys of the form's title and of its tab */
  title: string;
  tab: string;
  /** the tab's test id */
  testId: string;
  /** the values a new form starts with */
  blank: (ref: Reference | undefined, userId: number) => Record<string, unknown>;
  /** the entity has a `location` point: the place (my location, typed, or a photo's GPS) is asked */
  point: boolean;
  /** what names a record in "my records" */
  label: (data: Record<string, unknown>) => string;
  Fields: (props: { kit: Kit }) => ReactNode;
}

const num = (v: string) => (v === '' ? undefined : Number(v));

export function Input(props: { kit: Kit; name: string; label: string; type?: string; extra?: Record<string, unknown> }) {
  const { kit, name, type = 'text' } = props;
  return (
    <Field label={props.label} error={kit.errors[name]}>
      <input
        name={name}
        type={type}
        value={kit.text(name)}
        disabled={kit.readOnly}
        onChange={(e) => kit.set(name, type === 'number' ? num(e.target.value) : e.target.value)}
        {...props.extra}
      />
    </Field>
  );
}

/** A choice of a book's rows (ids), or of an enum's values (`values`, captions `${prefix}${value}`). */
export function Select(props: {
  kit: Kit;
  name: string;
  label: string;
  rows?: Row[];
  values?: string[];
  prefix?: string;
  required?: boolean;
  render?: (r: Row) => string;
}) {
  const { kit, name } = props;
  return (
    <Field label={props.label} error={kit.errors[name]}>
      <select
        name={name}
        value={kit.text(name)}
        disabled={kit.readOnly}
        required={props.required}
        onChange={(e) => kit.set(name, props.values ? e.target.value || undefined : num(e.target.value))}
      >
        {(!props.values || !props.required) && <option value="">{kit.t('form.choose')}</option>}
        {props.values
          ? props.values.map((v) => (
              <option key={v} value={v}>
                {kit.t(`${props.prefix ?? ''}${v}`)}
              </option>
            ))
          : (props.rows ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {props.render ? props.render(r) : nameOf(r, kit.lang) || String(r.id)}
              </option>
            ))}
      </select>
    </Field>
  );
}

/** The region (required) and, when it has any, its district. */
export function RegionArea(props: { kit: Kit }) {
  const { kit } = props;
  return (
    <>
      <Select kit={kit} name="region_id" label={kit.t('f.region_id')} rows={kit.book('regions')} required />
      {kit.areas.length > 0 && <Select kit={kit} name="area_id" label={kit.t('f.area_id')} rows={kit.areas} />}
    </>
  );
}

/**
 * A record's child rows (an offence's offenders, its witnesses): each drawn by `children` with a
 * setter of its own, added and removed by the user, their errors at `<name>.<i>.<field>`.
 */
export function ChildRows(props: {
  kit: Kit;
  name: string;
  legend: string;
  add: string;
  blank: Record<string, unknown>;
  /** the fewest rows kept (an offence has at least one offender) */
  min?: number;
  testId: string;
  children: (row: Record<string, unknown>, set: (k: string, v: unknown) => void, path: string) => ReactNode;
}) {
  const { kit, name } = props;
  const rows = (kit.data[name] as Record<string, unknown>[] | undefined) ?? [];
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {rows.length === 0 && kit.readOnly && <p className="hint">—</p>}
      {rows.map((row, i) => (
        <div className="offender" key={i} data-testid={props.testId}>
          {props.children(
            row,
            (k, v) =>
              kit.set(
                name,
                rows.map((x, j) => (j === i ? { ...x, [k]: v } : x)),
              ),
            `${name}.${i}`,
          )}
          {!kit.readOnly && rows.length > (props.min ?? 0) && (
            <button
              type="button"
              className="link"
              onClick={() =>
                kit.set(
                  name,
                  rows.filter((_, j) => j !== i),
                )
              }
            >
              {kit.t('f.row.remove')}
            </button>
          )}
        </div>
      ))}
      {!kit.readOnly && (
        <button type="button" className="secondary" onClick={() => kit.set(name, [...rows, { ...props.blank }])}>
          {props.add}
        </button>
      )}
    </fieldset>
  );
}

/** A text input of a child row. */
export function RowInput(props: {
  kit: Kit;
  row: Record<string, unknown>;
  set: (k: string, v: unknown) => void;
  path: string;
  name: string;
  label: string;
  extra?: Record<string, unknown>;
}) {
  const { kit, row, name } = props;
  return (
    <Field label={props.label} error={kit.errors[`${props.path}.${name}`]}>
      <input
        name={`${props.path}.${name}`}
        value={String(row[name] ?? '')}
        disabled={kit.readOnly}
        onChange={(e) => props.set(name, e.target.value)}
        {...props.extra}
      />
    </Field>
  );
}
