import type { Writable } from 'node:stream';
import type { EntityMeta } from '../meta/types.ts';

/**
 * GeoJSON (RFC 7946) of rows with a point or a polygon field: the geometry a row is drawn by, and
 * a FeatureCollection written feature by feature to a stream, so no export holds its rows at once.
 */

/** The media type RFC 7946 registers. */
export const GEOJSON_TYPE = 'application/geo+json';

export interface GeometryFields {
  /** the polygon field a row is drawn by when it has one */
  polygon?: string;
  /** the point field: the row's geometry when it has no polygon */
  point?: string;
}

/**
 * The fields an entity's rows are drawn by: its public map's shape and point when it declares a
 * layer, else its first polygon field and its first point field (child rows' are not the row's).
 * null when it has neither: such an entity has no GeoJSON export.
 */
export function geometryFields(e: EntityMeta, among?: readonly string[]): GeometryFields | null {
  const has = (name: string | undefined, type: 'point' | 'polygon') =>
    !!name && e.fields[name]?.type === type && (!among || among.includes(name));
  const first = (type: 'point' | 'polygon') => Object.keys(e.fields).find((n) => has(n, type));
  const map = e.public?.map;
  const polygon = has(map?.shape, 'polygon') ? map!.shape : first('polygon');
  const point = has(map?.point, 'point') ? map!.point : first('point');
  return polygon || point ? { ...(polygon ? { polygon } : {}), ...(point ? { point } : {}) } : null;
}

export type Position = [number, number];
export type Geometry = { type: 'Point'; coordinates: Position } | { type: 'Polygon'; coordinates: Position[][] };

/**
 * A stored ring (open: the closing point not repeated; [lng, lat] pairs) as an RFC 7946 polygon's
 * exterior: closed, and counterclockwise (the right-hand rule), reversed when it was drawn the
 * other way.
 */
export function polygonGeometry(ring: Position[]): Geometry {
  const open =
    ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1] ? ring.slice(0, -1) : ring;
  const ccw = signedArea(open) >= 0 ? open : [...open].reverse();
  return { type: 'Polygon', coordinates: [[...ccw.map(([x, y]) => [x, y] as Position), [ccw[0][0], ccw[0][1]]]] };
}

/** Twice the signed area of a ring (shoelace): positive when its points go counterclockwise. */
export function signedArea(ring: Position[]): number {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    s += x1 * y2 - x2 * y1;
  }
  return s;
}

/** A row's geometry: its polygon when it has one, else its point (`{lat, lng}` as the engine reads it), else null. */
export function rowGeometry(row: Record<string, unknown>, g: GeometryFields): Geometry | null {
  const ring = g.polygon ? row[g.polygon] : null;
  if (Array.isArray(ring) && ring.length >= 3) return polygonGeometry(ring as Position[]);
  const p = g.point ? (row[g.point] as { lat?: unknown; lng?: unknown } | null) : null;
  if (p && typeof p.lng === 'number' && typeof p.lat === 'number') return { type: 'Point', coordinates: [p.lng, p.lat] };
  return null;
}

/**
 * Writes a FeatureCollection to a stream: `begin`, then features batch by batch (waiting while
 * the reader is behind), then `end` with any foreign members (`truncated`). A row without a
 * geometry is a feature with `geometry: null` (RFC 7946 §3.2), so the features are the rows.
 */
export class FeatureWriter {
  private first = true;
  constructor(private readonly out: Writable) {}

  begin(): Promise<void> {
    return this.write('{"type":"FeatureCollection","features":[');
  }

  async features(items: { id: number; geometry: Geometry | null; properties: Record<string, unknown> }[]): Promise<void> {
    if (!items.length) return;
    const text = items.map((f) => JSON.stringify({ type: 'Feature', id: f.id, geometry: f.geometry, properties: f.properties })).join(',');
    await this.write(this.first ? text : `,${text}`);
    this.first = false;
  }

  async end(members: Record<string, unknown> = {}): Promise<void> {
    const extra = Object.entries(members)
      .map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`)
      .join('');
    await this.write(`]${extra}}`);
    this.out.end();
  }

  private write(text: string): Promise<void> {
    if (this.out.destroyed) return Promise.reject(new Error('the reader went away'));
    if (this.out.write(text)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (err?: Error) => {
        this.out.off('drain', ok);
        this.out.off('close', closed);
        if (err) reject(err);
        else resolve();
      };
      const ok = () => done();
      const closed = () => done(new Error('the reader went away'));
      this.out.once('drain', ok);
      this.out.once('close', closed);
    });
  }
}
