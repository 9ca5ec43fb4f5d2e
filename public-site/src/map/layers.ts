import type { Key } from '../i18n';

/**
 * The map's layers, as the layer switcher lists them. `plantings` layers come from the viewport
 * API of plantings (counts by region and cell, then single plantings); `entity` layers from
 * `/public/map/layers/:entity?bbox=` (points, and outlines where the entity has a shape).
 */
export interface LayerDef {
  key: string;
  title: Key;
  color: string;
  source: 'plantings' | 'entity';
  /** plantings: irrigated trees only */
  irrigation?: boolean;
  /** entity: the public entity's name */
  entity?: string;
  /** the page of one item, if the site has one */
  detail?: (id: number) => string;
}

export const LAYERS: LayerDef[] = [
  { key: 'trees', title: 'layer.trees', color: '#2e7d32', source: 'plantings' },
  { key: 'irrigation', title: 'layer.irrigation', color: '#0277bd', source: 'plantings', irrigation: true },
  { key: 'streets', title: 'layer.streets', color: '#ef6c00', source: 'entity', entity: 'green-streets' },
  {
    key: 'parks',
    title: 'layer.parks',
    color: '#33691e',
    source: 'entity',
    entity: 'green-parks',
    detail: (id) => `/green-area-garden-park/${id}`,
  },
  {
    key: 'public_parks',
    title: 'layer.public_parks',
    color: '#00897b',
    source: 'entity',
    entity: 'public-parks',
    detail: (id) => `/green-area-garden-park/${id}`,
  },
  { key: 'gardens', title: 'layer.gardens', color: '#8d6e63', source: 'entity', entity: 'my-gardens' },
  { key: 'old_trees', title: 'layer.old_trees', color: '#5d4037', source: 'entity', entity: 'hundred-yo-trees' },
  {
    key: 'resident_areas',
    title: 'layer.resident_areas',
    color: '#6a1b9a',
    source: 'entity',
    entity: 'resident-planting-areas',
    detail: (id) => `/resident-planting-areas/${id}`,
  },
];

export const DEFAULT_LAYERS = ['trees'];

/** The layers named in the address (`layers=trees,parks`), known ones only; none named: the default. */
export function layersOf(raw: string | null): string[] {
  if (raw === null) return DEFAULT_LAYERS;
  const wanted = new Set(raw.split(',').map((s) => s.trim()));
  return LAYERS.filter((l) => wanted.has(l.key)).map((l) => l.key);
}
