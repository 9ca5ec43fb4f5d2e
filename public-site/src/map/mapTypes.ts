import type { LayerItem, MapAnswer } from '../api';
import type { LayerDef } from './layers';

/** A planting layer's circle or point: a region's or grid cell's count, or one place's trees. */
export interface Item {
  kind: 'cluster' | 'tree';
  lng: number;
  lat: number;
  count: number;
  id?: number;
  regionId?: number;
  speciesId?: number;
}
/** A planting layer's scale of bubbles: its view's biggest count and the radius it is drawn at. */
export interface BubbleScale {
  max: number;
  maxRadius: number;
}
export type Status = 'off' | 'loading' | 'idle' | 'error';
/** What a planting layer shows in the view. */
export interface PlantingsState {
  status: Status;
  layer?: MapAnswer['layer'];
  truncated?: boolean;
  items: Item[];
  /** the bubbles' scale of the view (regions and cells) */
  scale?: BubbleScale;
}
/** What an entity layer (streets, parks, …) shows in the view. */
export interface EntityState {
  status: Status;
  truncated?: boolean;
  items: LayerItem[];
}
/** The item of an entity layer whose popup is open. */
export interface Popup {
  layer: LayerDef;
  item: LayerItem;
}

/** What the map's handlers offer the page around it: zoom in to a cluster, turn a layer on or off, open or close the popup. */
export interface MapApi {
  zoomTo: (i: Item) => void;
  toggle: (key: string, on: boolean) => void;
  show: (p: Popup | null) => void;
}

/** The zoom a click on a cluster goes to: the next level of aggregation (see api/map/grid.ts). */
export function nextZoom(z: number): number {
  if (z < 7) return 7;
  if (z < 10) return 10;
  if (z < 13) return 13;
  if (z < 15) return 15;
  return Math.min(19, z + 1);
}
