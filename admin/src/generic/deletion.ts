import type { RaRecord } from 'react-admin';

/**
 * What these rules read of an entity and a workflow action (the back-office's EntityMeta and
 * WorkflowActionMeta have it): kept structural, so the rules are tested from `test/` without the
 * back-office's module graph.
 */
export interface DeletionEntity {
  can: { delete: boolean };
  undeletable?: string;
  workflow?: { field: string; editable?: string[] };
  fields: { name: string; type: string; label: string; hidden?: boolean }[];
}
export interface DeletingAction {
  removes?: string[];
}

/** A bulk delete of more rows than this asks for their count typed (docs/decisions/0066). */
export const TYPED_BULK_FROM = 10;

/** How long a delete may be undone: the request waits this long in the browser (docs/decisions/0065). */
export const UNDO_MS = 6000;

/** A long name is cut on the confirm button, never in the question. */
export const BUTTON_NAME_MAX = 32;

/**
 * Whether the user may be offered a row's delete: the right, a state that lets the row be changed,
 * and no mark of a row the system needs (a seeded role: the entity's `undeletable` field).
 */
export function deletable(entity: DeletionEntity, record: RaRecord | undefined): boolean {
  if (!entity.can.delete) return false;
  // the states its workflow lets a row be changed in (editableState's rule)
  const wf = entity.workflow;
  if (record && wf?.editable && !wf.editable.includes(record[wf.field] as string)) return false;
  return !(record && entity.undeletable && record[entity.undeletable] === true);
}

/** A bulk delete asks for the count typed when more than ten rows go. */
export const typedBulk = (count: number): boolean => count > TYPED_BULK_FROM;

/**
 * A typed confirmation compared as a person means it: case, spaces, quotes and the Uzbek
 * apostrophes (ʻ ʼ ' ‘ ’ `) aside — «Chinor» MChJ is matched by `chinor mchj`.
 */
export function fold(s: string): string {
  return (
    s
      .normalize('NFKC')
      .toLocaleLowerCase()
      // ʻ and ʼ are modifier letters (Lm) to Unicode, apostrophes to an Uzbek reader
      .replace(/[^\p{L}\p{N}]|\p{Lm}/gu, '')
  );
}

/** Whether what was typed names the expected text (an empty expectation is never met). */
export function typedMatches(typed: string, expected: string): boolean {
  const want = fold(expected);
  return want.length > 0 && fold(typed) === want;
}

/** A name cut to fit a button: "Toshkent shahar obodonlashtirish…". */
export function shortName(name: string, max = BUTTON_NAME_MAX): string {
  const s = name.trim();
  return s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`;
}

/** One thing that goes with a deleted row: its caption key and, when the row says, how many. */
export interface Consequence {
  caption: string;
  count?: number;
}

/**
 * What goes with a row when it is deleted, from the metadata: its child rows (a subject's norms),
 * its files, and for a deleting workflow action the entities its hook removes with it (`removes`).
 * Child rows and files the row holds none of are left out; counts come from the row as read.
 */
export function consequences(
  entity: DeletionEntity,
  record: RaRecord | undefined,
  action?: DeletingAction,
  captionOf: (entityName: string) => string | undefined = () => undefined,
): Consequence[] {
  const out: Consequence[] = [];
  for (const f of entity.fields) {
    if (f.hidden) continue;
    const v = record?.[f.name];
    if (f.type === 'children' || f.type === 'files') {
      if (Array.isArray(v) && v.length) out.push({ caption: f.label, count: v.length });
    } else if ((f.type === 'file' || f.type === 'image') && v != null && v !== '') out.push({ caption: f.label, count: 1 });
  }
  for (const name of action?.removes ?? []) {
    const caption = captionOf(name);
    if (caption) out.push({ caption });
  }
  return out;
}
