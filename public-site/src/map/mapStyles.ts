import { Circle, Fill, Stroke, Style, Text } from 'ol/style';
import type { FeatureLike } from 'ol/Feature';
import { fmtShort } from '../format';
import { pick, type Lang } from '../i18n';
import type { Region } from '../api';
import { bubbleRadius, labelInside } from './bubbles';
import type { Item } from './mapTypes';

/** The declutter group of the names and the plantings' layers. */
export const DECLUTTER = 'labels';

const styleCache = new Map<string, Style>();
function cached(key: string, make: () => Style): Style {
  let s = styleCache.get(key);
  if (!s) {
    s = make();
    styleCache.set(key, s);
  }
  return s;
}
function clusterStyle(count: number, color: string, r: number): Style {
  const inside = labelInside(fmtShort(count), r);
  return cached(
    `c${color}${r}:${count}`,
    () =>
      new Style({
        // the circle is always drawn and region names keep clear of it; a count too big for its circle
        // goes above it and gives way to another (the layers declutter together)
        image: new Circle({
          radius: r,
          fill: new Fill({ color: `${color}d1` }),
          stroke: new Stroke({ color: '#fff', width: 2 }),
          declutterMode: 'obstacle',
        }),
        text: inside
          ? new Text({
              text: fmtShort(count),
              font: 'bold 12px system-ui, sans-serif',
              fill: new Fill({ color: '#fff' }),
              declutterMode: 'none',
            })
          : new Text({
              text: fmtShort(count),
              offsetY: -(r + 9),
              font: 'bold 11px system-ui, sans-serif',
              fill: new Fill({ color }),
              stroke: new Stroke({ color: '#fff', width: 3 }),
            }),
      }),
  );
}
function treeStyle(count: number, color: string): Style {
  return cached(
    `t${color}${count}`,
    () =>
      new Style({
        image: new Circle({
          radius: 8,
          fill: new Fill({ color }),
          stroke: new Stroke({ color: '#fff', width: 2 }),
          declutterMode: 'obstacle',
        }),
        text:
          count > 1
            ? new Text({
                text: fmtShort(count),
                offsetY: -17,
                font: 'bold 11px system-ui, sans-serif',
                fill: new Fill({ color }),
                stroke: new Stroke({ color: '#fff', width: 3 }),
              })
            : undefined,
      }),
  );
}

/** A planting layer's look: a place's trees as a point, a count as a circle sized by it. */
export const plantingsStyle = (color: string) => (f: FeatureLike, resolution: number) => {
  const item = f.get('item') as Item;
  return item.kind === 'tree' ? treeStyle(item.count, color) : clusterStyle(item.count, color, bubbleRadius(item.count, f, resolution));
};

/** An entity layer's look: its points, and its outlines filled faintly. */
export function entityStyle(color: string) {
  const point = new Style({ image: new Circle({ radius: 7, fill: new Fill({ color }), stroke: new Stroke({ color: '#fff', width: 2 }) }) });
  const shape = new Style({ fill: new Fill({ color: `${color}33` }), stroke: new Stroke({ color, width: 2 }) });
  return (f: FeatureLike) => (f.getGeometry()?.getType() === 'Point' ? point : shape);
}

/** A region's name in the language shown, below its centre. */
export const regionNameStyle = (lang: Lang) => (f: FeatureLike) =>
  new Style({
    text: new Text({
      text: pick((f.get('region') as Region).name, lang),
      offsetY: 30,
      font: '12px system-ui, sans-serif',
      fill: new Fill({ color: '#33691e' }),
      stroke: new Stroke({ color: '#fff', width: 3 }),
    }),
  });
