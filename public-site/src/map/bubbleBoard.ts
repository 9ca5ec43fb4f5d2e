import type Feature from 'ol/Feature';
import type { FeatureLike } from 'ol/Feature';
import type Point from 'ol/geom/Point';
import type VectorSource from 'ol/source/Vector';
import { getUid } from 'ol/util';
import { bubbleRadius, MAX_RADIUS, separate } from './bubbles';
import type { BubbleScale, Item } from './mapTypes';

/** The plantings layers that draw bubbles, the main one first (it leads the scale and the places). */
const BUBBLE_LAYERS = ['trees', 'irrigation'];

/**
 * The scale the bubbles of every planting layer on share: the biggest count among them at the
 * leading layer's radius, so that the irrigated trees' bubble of a region is smaller than its
 * trees' bubble in the proportion of their counts. `scales` lists the layers that are on, the main one first.
 */
export function shareScale(scales: (BubbleScale | undefined)[]): BubbleScale | null {
  const known = scales.filter((s): s is BubbleScale => !!s && s.max > 0);
  if (known.length === 0) return null;
  return { max: Math.max(...known.map((s) => s.max)), maxRadius: known[0].maxRadius };
}

/**
 * The radius to draw a grid's cells at: about a cell's width on the screen when the view was asked
 * (neighbouring cells' bubbles touch rather than cover each other), never more than MAX_RADIUS.
 */
export function cellMaxRadius(cellDegrees: number, resolution: number): number {
  const px = (cellDegrees * 111_319.49) / resolution;
  return Math.max(12, Math.min(MAX_RADIUS, Math.round(px)));
}

/**
 * Where and how big each bubble of the planting layers is drawn at a resolution: the radius from
 * the shared scale, and for the regions' bubbles (a few dozen) an offset that keeps them apart
 * (bubbles.ts `separate`); the irrigation layer's bubble of a region sits where its trees' bubble is.
 * Recomputed only when the resolution or a layer's features change.
 */
export class BubbleBoard {
  private cacheKey = '';
  private offsets = new Map<number, [number, number]>();
  /** the layers whose look depends on the board: drawn again when a planting layer changes */
  readonly dependents: { changed: () => void }[] = [];

  constructor(
    private readonly sources: Map<string, VectorSource>,
    private readonly isOn: (key: string) => boolean,
  ) {}

  /**
   * Every dependent layer drawn again (OpenLayers keeps a layer's drawing until its own source
   * changes): after a planting layer's features change or one is turned on or off.
   */
  refresh(): void {
    for (const l of this.dependents) l.changed();
  }

  scale(): BubbleScale | null {
    return shareScale(BUBBLE_LAYERS.filter((k) => this.isOn(k)).map((k) => this.sources.get(k)?.get('scale') as BubbleScale | undefined));
  }

  radius(count: number): number {
    const s = this.scale();
    return s ? bubbleRadius(count, s.max, s.maxRadius) : bubbleRadius(count, count);
  }

  /** A region's bubble's offset from its true place, in map units (none for cells and single plantings). */
  offset(f: FeatureLike, resolution: number): [number, number] | null {
    const item = f.get('item') as Item | undefined;
    if (!item || item.kind !== 'cluster' || item.regionId === undefined) return null;
    this.layout(resolution);
    const o = this.offsets.get(item.regionId);
    return o && (o[0] !== 0 || o[1] !== 0) ? [o[0] * resolution, -o[1] * resolution] : null;
  }

  /** The centre a feature's bubble is drawn at, in map units. */
  centre(f: FeatureLike, resolution: number): [number, number] {
    const [x, y] = (f.getGeometry() as Point).getCoordinates();
    const o = this.offset(f, resolution);
    return o ? [x + o[0], y + o[1]] : [x, y];
  }

  /** A region's bubble as drawn (the first planting layer on that shows it): its centre in map units and its radius. */
  regionBubble(regionId: number, resolution: number): { at: number[]; r: number } | null {
    for (const k of BUBBLE_LAYERS) {
      const source = this.isOn(k) ? this.sources.get(k) : undefined;
      if (!source || source.get('layer') !== 'regions') continue;
      const f = source.getFeatures().find((x) => (x.get('item') as Item).regionId === regionId);
      if (f) return { at: this.centre(f, resolution), r: this.radius((f.get('item') as Item).count) };
    }
    return null;
  }

  private layout(resolution: number): void {
    const lead = BUBBLE_LAYERS.map((k) => (this.isOn(k) ? this.sources.get(k) : undefined)).find(
      (s) => s && s.get('layer') === 'regions' && s.getFeatures().length > 0,
    );
    const key = lead ? `${resolution}:${BUBBLE_LAYERS.map((k) => this.sources.get(k)?.getRevision()).join(',')}:${getUid(lead)}` : '';
    if (key === this.cacheKey) return;
    this.cacheKey = key;
    this.offsets.clear();
    if (!lead) return;
    const feats = lead.getFeatures() as Feature[];
    const placed = feats.map((f) => {
      const [x, y] = (f.getGeometry() as Point).getCoordinates();
      // pixels, y down as on the screen
      return { x: x / resolution, y: -y / resolution, r: this.radius((f.get('item') as Item).count) };
    });
    const moves = separate(placed);
    feats.forEach((f, i) => {
      const id = (f.get('item') as Item).regionId;
      if (id !== undefined) this.offsets.set(id, moves[i]);
    });
  }
}
