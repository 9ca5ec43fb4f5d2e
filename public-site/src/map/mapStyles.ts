import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import type { FeatureLike } from 'ol/Feature';
import LineString from 'ol/geom/LineString';
import Point from 'ol/geom/Point';
import { fmtShort } from '../format';
import { pick, type Lang } from '../i18n';
import type { Region } from '../api';
import type { BubbleBoard } from './bubbleBoard';
import { labelInside } from './bubbles';
import type { Item } from './mapTypes';

/** The declutter group of the names and the plantings' counts. */
export const DECLUTTER = 'labels';

/**
 * The order of the map's layers, bottom to top (OpenLayers' zIndex): the areas' outlines under the
 * trees, the trees' bubbles under the irrigated trees' rings (a part of them), the points of the
 * other layers above every bubble, and the labels above everything: the region names, and over them
 * the counts (which win where the two would collide).
 */
export const Z = { shapes: 1, trees: 2, irrigation: 3, points: 4, names: 5, counts: 6 } as const;

const styleCache = new Map<string, Style>();
function cached(key: string, make: () => Style): Style {
  let s = styleCache.get(key);
  if (!s) {
    s = make();
    styleCache.set(key, s);
  }
  return s;
}

/**
 * A cluster's circle: the trees filled, slightly transparent so that what lies under shows; the
 * irrigated trees (`ring`) as a faint fill inside a strong outline, so that over the trees' bubble of
 * the same place it reads as "this part of them".
 */
function circleStyle(color: string, r: number, ring: boolean): Style {
  return cached(
    `c${color}${r}${ring}`,
    () =>
      new Style({
        image: new Circle({
          radius: r,
          fill: new Fill({ color: ring ? `${color}40` : `${color}bf` }),
          stroke: ring ? new Stroke({ color, width: 2.5 }) : new Stroke({ color: '#fff', width: 1.5 }),
        }),
      }),
  );
}
const leaderStyle = (color: string) =>
  cached(`l${color}`, () => new Style({ stroke: new Stroke({ color, width: 1.5, lineDash: [3, 3] }) }));
const anchorStyle = (color: string) =>
  cached(
    `a${color}`,
    () => new Style({ image: new Circle({ radius: 3, fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 1 }) }) }),
  );
const treeStyle = (color: string) =>
  cached(
    `t${color}`,
    () => new Style({ image: new Circle({ radius: 8, fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 2 }) }) }),
  );

/**
 * A planting layer's shapes: a place's trees as a point, a count as a bubble whose area is its
 * count (bubbleBoard.ts); a region's bubble moved off its place by its neighbours keeps a dashed
 * line to a dot at its place.
 */
export const plantingsStyle = (color: string, board: BubbleBoard, ring: boolean) => (f: FeatureLike, resolution: number) => {
  const item = f.get('item') as Item;
  if (item.kind === 'tree') return treeStyle(color);
  const circle = circleStyle(color, board.radius(item.count), ring);
  const off = board.offset(f, resolution);
  if (!off) return circle;
  const [x, y] = (f.getGeometry() as Point).getCoordinates();
  const at = new Point([x + off[0], y + off[1]]);
  const out = [new Style({ image: circle.getImage()!, geometry: at })];
  if (!ring) {
    out.unshift(
      new Style({ stroke: leaderStyle(color).getStroke()!, geometry: new LineString([[x, y], at.getCoordinates()]) }),
      anchorStyle(color),
    );
  }
  return out;
};

/**
 * A planting layer's counts, on the labels' layer (decluttered with the region names): inside its
 * bubble when it fits, else above it; a place with more than one tree says how many above its point.
 */
export const plantingsLabelStyle = (color: string, board: BubbleBoard, ring: boolean) => (f: FeatureLike, resolution: number) => {
  const item = f.get('item') as Item;
  const label = fmtShort(item.count);
  if (item.kind === 'tree') {
    if (item.count <= 1) return undefined;
    return cached(`tl${color}${label}`, () => new Style({ text: aboveText(label, color, 17) }));
  }
  const r = board.radius(item.count);
  // an irrigated count goes below its ring, so that it does not sit on the trees' count of the place
  const inside = !ring && labelInside(label, r);
  const text = inside
    ? new Text({
        text: label,
        font: 'bold 12px system-ui, sans-serif',
        fill: new Fill({ color: '#fff' }),
        stroke: new Stroke({ color, width: 2 }),
        declutterMode: 'none',
      })
    : aboveText(label, color, ring ? -(r + 9) : r + 9);
  // the bubble as an invisible obstacle: no name or other count is written over it
  const obstacle = new Circle({ radius: r, fill: new Fill({ color: 'rgba(0,0,0,0)' }), declutterMode: 'obstacle' });
  return new Style({ image: obstacle, text, geometry: new Point(board.centre(f, resolution)) });
};

function aboveText(label: string, color: string, offset: number): Text {
  return new Text({
    text: label,
    offsetY: -offset,
    font: 'bold 11px system-ui, sans-serif',
    fill: new Fill({ color }),
    stroke: new Stroke({ color: '#fff', width: 3 }),
  });
}

/** An entity layer's points (on the points' layer) or its outlines filled faintly (on the shapes' layer). */
export function entityStyle(color: string, points: boolean) {
  const point = new Style({ image: new Circle({ radius: 7, fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 2 }) }) });
  const shape = new Style({ fill: new Fill({ color: `${color}26` }), stroke: new Stroke({ color, width: 2 }) });
  return (f: FeatureLike) => ((f.getGeometry()?.getType() === 'Point') === points ? (points ? point : shape) : undefined);
}

/**
 * A region's name in the language shown, below the region's bubble when it has one (where the
 * bubble is drawn, however big), else below its centre.
 */
export const regionNameStyle = (lang: Lang, bubbleOf: (regionId: number, resolution: number) => { at: number[]; r: number } | null) =>
  function regionName(f: FeatureLike, resolution: number) {
    const region = f.get('region') as Region;
    const b = bubbleOf(region.id, resolution);
    return new Style({
      geometry: b ? new Point(b.at) : undefined,
      text: new Text({
        text: pick(region.name, lang),
        offsetY: (b?.r ?? 4) + 14,
        font: '12px system-ui, sans-serif',
        fill: new Fill({ color: '#33691e' }),
        stroke: new Stroke({ color: '#fff', width: 3 }),
      }),
    });
  };
