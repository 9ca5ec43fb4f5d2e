import { ComingSoon, PageTitle } from '../components/ui';
import { StatsFilters, StatsNav } from '../components/Filters';
import { useI18n, type Key } from '../i18n';
import { STATS } from '../nav';

/**
 * Sections whose data the public API does not give yet: the green areas and parks, the areas where
 * residents may plant, permits, illegal felling, and four statistics pages and the volunteers'.
 * Statistics pages keep their filters (year, region) so the layout is the one they will have.
 */
const TITLES: Record<string, Key> = {
  'resident-planting-areas': 'page.resident_areas',
  'green-area-garden-park': 'page.green_areas',
  permits: 'page.permits',
  'illegal-loggers': 'page.illegal_loggers',
};
const ITEM_TITLES: Record<string, Key> = {
  'resident-planting-areas': 'page.resident_area',
  'green-area-garden-park': 'page.green_area',
};

export default function Placeholders({ path, query }: { path: string; query: URLSearchParams }) {
  const { t } = useI18n();
  const [, section, id] = path.split('/');
  const stats = STATS.find((s) => s.path === path);
  if (stats) {
    return (
      <div className="container">
        <PageTitle>{t(stats.title)}</PageTitle>
        <StatsNav path={path} />
        <StatsFilters path={path} query={query} region={path !== '/volunteer-statistics'} />
        <ComingSoon />
      </div>
    );
  }
  const title = id && ITEM_TITLES[section] ? `${t(ITEM_TITLES[section])} № ${id}` : t(TITLES[section] ?? 'page.not_found');
  return (
    <div className="container narrow">
      <PageTitle>{title}</PageTitle>
      <ComingSoon />
    </div>
  );
}
