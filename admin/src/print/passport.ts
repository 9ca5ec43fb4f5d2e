/**
 * The arithmetic and the addresses of a tree passport, apart from its layout.
 */

/** Diameter at breast height from the circumference: c / π, one decimal ("45.0" cm → "14.3"). */
export function dbhCm(circumference: unknown): string {
  if (circumference === null || circumference === undefined || circumference === '') return '';
  const c = Number(String(circumference).trim());
  if (!Number.isFinite(c) || c <= 0) return '';
  return (c / Math.PI).toFixed(1);
}

/** The public site's page of a planted tree, what its passport's QR code opens. */
export function publicTreeUrl(origin: string, id: unknown): string {
  return `${origin.replace(/\/+$/, '')}/#/tree/${encodeURIComponent(String(id))}`;
}

/** The public map centred on a point (a tree with no page of its own on the public site). */
export function publicMapUrl(origin: string, point: { lat?: unknown; lng?: unknown } | null | undefined): string | undefined {
  const lat = Number(point?.lat);
  const lng = Number(point?.lng);
  if (!point || !Number.isFinite(lat) || !Number.isFinite(lng)) return undefined;
  return `${origin.replace(/\/+$/, '')}/#/map?lat=${lat.toFixed(6)}&lng=${lng.toFixed(6)}&z=18`;
}

/**
 * The entities printed as a tree's passport, and what their QR codes encode: a planting's public
 * page, a hundred-year-old tree's place on the public map (the public site has no page for them).
 */
export const PASSPORTS: Record<string, { qr: (origin: string, record: Record<string, unknown>) => string | undefined }> = {
  plantings: { qr: (origin, r) => publicTreeUrl(origin, r.id) },
  'hundred-yo-trees': { qr: (origin, r) => publicMapUrl(origin, r.location as { lat?: unknown; lng?: unknown }) },
};

export function hasPassport(entity: string): boolean {
  return entity in PASSPORTS;
}

/** `/print/plantings/12`: the print page of a row (outside the app's layout). */
export function printPath(entity: string, id: unknown): string {
  return `/print/${encodeURIComponent(entity)}/${encodeURIComponent(String(id))}`;
}

/** The sheet sizes offered, in millimetres (portrait). */
export const PAPER = { A5: { width: 148, height: 210 }, A4: { width: 210, height: 297 } } as const;
export type Paper = keyof typeof PAPER;

/** How a sheet is turned: portrait, or landscape where a printed table is too wide for it. */
export type Orientation = 'portrait' | 'landscape';

/** Tables of more columns than this do not fit a portrait sheet readably: the sheet turns. */
export const PORTRAIT_MAX_COLUMNS = 7;

/** A row's sheet turns to landscape when one of its tables (children rows) has more columns than a portrait sheet holds. */
export function orientationOf(fields: { type: string; hidden?: boolean; fields?: { hidden?: boolean }[] }[]): Orientation {
  const widest = Math.max(
    0,
    ...fields.filter((f) => f.type === 'children' && !f.hidden).map((f) => (f.fields ?? []).filter((c) => !c.hidden).length),
  );
  return widest > PORTRAIT_MAX_COLUMNS ? 'landscape' : 'portrait';
}

/**
 * A row's printed heading: its title; where the title is only its number (a report is named by
 * its id), the entity's caption with the number, never "145 № 145".
 */
export function printHeading(caption: string, title: string, id: unknown): { overline?: string; title: string } {
  const n = String(id);
  if (!title || title === n || title === `#${n}`) return { title: `${caption} № ${n}` };
  return { overline: caption, title: `${title} № ${n}` };
}
