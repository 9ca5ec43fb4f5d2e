import { createContext, useContext, type ComponentType, type ReactElement } from 'react';
import type { EntityMeta, FilterMeta } from '../meta/types';
import type { MetaFieldProps } from './MetaFieldProps';

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
  /** how a field's value shows in the list and on the page, where its kind says too little (a stored entity or action name) */
  fieldViews?: Record<string, ComponentType<MetaFieldProps>>;
  /** shown under a field's input on the create and edit forms (inside the form: it may watch the other inputs), by the field's name */
  formHints?: Record<string, ComponentType<{ entity: EntityMeta }>>;
  /** the input of a list filter, by the filter's name, instead of the one its field kind gives */
  filterInputs?: Record<string, (f: FilterMeta) => ReactElement>;
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
