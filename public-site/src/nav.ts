import type { Key } from './i18n';
import type { SiteMenuItem } from './api';

/** The site's sections as the menu groups them (routes keep the spellings other systems use). */
export interface NavItem {
  path: string;
  title: Key;
}

export const STATS: NavItem[] = [
  { path: '/region-plantings-statistics', title: 'page.region_plantings_stats' },
  { path: '/trees-types-statistics', title: 'page.species_stats' },
  { path: '/region-trees-types-statistics', title: 'page.region_species_stats' },
  { path: '/to-do-pantings-statistics', title: 'page.todo_stats' },
  { path: '/region-ministries-statistics', title: 'page.ministries_stats' },
  { path: '/region-inventories-statistics', title: 'page.inventories_stats' },
  { path: '/eco-info-by-regions-statistics', title: 'page.eco_info_stats' },
  { path: '/forestry-perort-statistics', title: 'page.forestry_stats' },
  { path: '/irrigation-statistics', title: 'page.irrigation_stats' },
  { path: '/volunteer-statistics', title: 'page.volunteers' },
];

export const MENU: { title: Key; items: NavItem[] }[] = [
  {
    title: 'nav.group.main',
    items: [
      { path: '/', title: 'nav.home' },
      { path: '/map', title: 'page.map' },
      { path: '/news', title: 'nav.news' },
      { path: '/about', title: 'page.about' },
      { path: '/contacts', title: 'page.contacts' },
      { path: '/login', title: 'nav.login' },
      { path: '/my-gardens', title: 'page.my_gardens' },
    ],
  },
  { title: 'nav.statistics', items: STATS },
  {
    title: 'nav.group.green',
    items: [
      { path: '/green-area-garden-park', title: 'page.green_areas' },
      { path: '/resident-planting-areas', title: 'page.resident_areas' },
    ],
  },
  {
    title: 'nav.group.control',
    items: [
      { path: '/permits', title: 'page.permits' },
      { path: '/illegal-loggers', title: 'page.illegal_loggers' },
    ],
  },
  {
    title: 'nav.group.community',
    items: [
      { path: '/population-seedlings', title: 'page.planting_form' },
      { path: '/people-facts', title: 'page.fact_form' },
      { path: '/volunteer-statistics', title: 'page.volunteers' },
    ],
  },
];

/** The menu's groups in their order, with their captions (the site's own). */
export const MENU_GROUPS: { code: string; title: Key }[] = [
  { code: 'main', title: 'nav.group.main' },
  { code: 'statistics', title: 'nav.statistics' },
  { code: 'green', title: 'nav.group.green' },
  { code: 'control', title: 'nav.group.control' },
  { code: 'community', title: 'nav.group.community' },
];

/**
 * The menu as the back-office keeps it (`menu`: visible items, in their order, captions in the
 * language asked for), grouped; a group without items is left out. Group captions are the site's.
 */
export function siteMenu(rows: SiteMenuItem[], t?: (k: Key) => string): { title: string; items: { path: string; caption: string }[] }[] {
  return MENU_GROUPS.map((g) => ({
    title: t ? t(g.title) : g.title,
    items: rows
      .filter((r) => r.menu_group === g.code)
      .sort((a, b) => (a.ordering ?? 0) - (b.ordering ?? 0))
      .map((r) => ({ path: r.path, caption: r.caption })),
  })).filter((g) => g.items.length);
}
