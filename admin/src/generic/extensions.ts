import { createContext, useContext, type ComponentType } from 'react';
import type { EntityMeta } from '../meta/types';

/**
 * What the spec's special screens add to the generated ones, by entity name: more buttons on a
 * list or a show page, more tabs on a show page. Everything else of those entities stays generated
 * from the metadata. The app provides the table (screens/registry.tsx), so the generic views do
 * not import the special ones.
 */
export interface EntityExtension {
  /** beside the list's create and export buttons */
  listActions?: ComponentType<{ entity: EntityMeta }>;
  /** beside the show page's workflow buttons (inside the record's context) */
  showActions?: ComponentType<{ entity: EntityMeta }>;
  /** more tabs on the show page, after the related lists */
  showTabs?: { key: string; label: string; Component: ComponentType<{ entity: EntityMeta }> }[];
}

/**
 * A screen of its own on a menu route with no entity (`ecologic-calculator`,
 * `access-managing/:user_roles_id`); `linkFrom` puts a button to it on that entity's show page,
 * with the row's id as the route's parameter.
 */
export interface ScreenDef {
  Component: ComponentType;
  linkFrom?: string;
  /** caption key of that button; default the route's caption */
  linkLabel?: string;
}

export interface Extensions {
  entities: Record<string, EntityExtension>;
  /** by the route's path without slashes (`managing/access-managing/:user_roles_id`) */
  screens: Record<string, ScreenDef>;
}

export const ExtensionsContext = createContext<Extensions>({ entities: {}, screens: {} });

export function useExtension(entity: string): EntityExtension {
  return useContext(ExtensionsContext).entities[entity] ?? {};
}

export function useScreens(): Record<string, ScreenDef> {
  return useContext(ExtensionsContext).screens;
}
