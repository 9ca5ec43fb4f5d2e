import { Component, lazy, Suspense, useEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { useI18n } from './i18n';
import { Landing } from './pages/Landing';
import { match, parseHash, useHash } from './router';
import { scrollToId, scrollToTop } from './scroll';

/** Every page but the landing is its own chunk, loaded when first opened. */
const Login = lazy(() => import('./pages/Login'));
const News = lazy(() => import('./pages/News'));
const TreePassport = lazy(() => import('./pages/TreePassport'));
const MapPage = lazy(() => import('./pages/MapPage'));
const Placeholders = lazy(() => import('./pages/Placeholders'));
const RegionPlantings = lazy(() => import('./pages/stats/RegionPlantings'));
const SpeciesStats = lazy(() => import('./pages/stats/SpeciesStats'));
const TodoStats = lazy(() => import('./pages/stats/TodoStats'));
const PlantingForm = lazy(() => import('./pages/PlantingForm'));
const ErrorPages = lazy(() => import('./pages/ErrorPages'));

type Page = ComponentType<{ params: Record<string, string>; query: URLSearchParams; path: string }>;

const ROUTES: [string, Page][] = [
  ['/', Landing],
  ['/login', Login],
  ['/sing-up', Login],
  ['/news', News],
  ['/news/:id', News],
  ['/tree/:id', TreePassport],
  ['/map', MapPage],
  ['/resident-planting-areas', Placeholders],
  ['/resident-planting-areas/:id', Placeholders],
  ['/green-area-garden-park', Placeholders],
  ['/green-area-garden-park/:id', Placeholders],
  ['/to-do-pantings-statistics', TodoStats],
  ['/trees-types-statistics', SpeciesStats],
  ['/region-trees-types-statistics', SpeciesStats],
  ['/region-plantings-statistics', RegionPlantings],
  ['/region-ministries-statistics', Placeholders],
  ['/region-inventories-statistics', Placeholders],
  ['/eco-info-by-regions-statistics', Placeholders],
  ['/forestry-perort-statistics', Placeholders],
  ['/volunteer-statistics', Placeholders],
  ['/permits', Placeholders],
  ['/illegal-loggers', Placeholders],
  ['/population-seedlings', PlantingForm],
  ['/error-404', ErrorPages],
  ['/error-403', ErrorPages],
  ['/error', ErrorPages],
];

function resolve(path: string): { Page: Page; params: Record<string, string> } {
  for (const [pattern, Page] of ROUTES) {
    const params = match(pattern, path);
    if (params) return { Page, params };
  }
  return { Page: ErrorPages, params: { status: '404' } }; // the catch-all
}

export function App() {
  const hash = useHash();
  const loc = parseHash(hash);
  const { Page, params } = resolve(loc.path);
  const first = useRef(true);

  // every navigation starts at the top, and screen readers hear the new page's heading
  useEffect(() => {
    if (first.current) { first.current = false; return; }
    scrollToTop();
    const deadline = performance.now() + 3000;
    const focusTitle = () => {
      const h1 = document.querySelector<HTMLElement>('main [data-page-title]');
      if (h1) h1.focus({ preventScroll: true });
      else if (performance.now() < deadline) requestAnimationFrame(focusTitle);
    };
    if (!loc.anchor) requestAnimationFrame(focusTitle);
  }, [loc.path]); // eslint-disable-line react-hooks/exhaustive-deps

  // an anchor in the address (#/path#section) scrolls there smoothly
  useEffect(() => {
    if (loc.anchor) scrollToId(loc.anchor);
  }, [loc.anchor, loc.path]);

  return (
    <Layout path={loc.path}>
      <ErrorBoundary key={loc.path}>
        <Suspense fallback={<Loading height={300} />}>
          <Page params={params} query={loc.query} path={loc.path} />
        </Suspense>
      </ErrorBoundary>
    </Layout>
  );
}

class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() { return { failed: true }; }
  override componentDidCatch(error: unknown) { console.error(error); }
  override render() {
    return this.state.failed ? <CrashPage /> : this.props.children;
  }
}

function CrashPage() {
  const { t } = useI18n();
  return (
    <div className="container">
      <div className="page-head"><h1 tabIndex={-1} data-page-title>{t('page.error')}</h1></div>
      <div className="empty" role="alert">
        <p className="empty-text">{t('err.generic_text')}</p>
        <button type="button" className="btn" onClick={() => window.location.reload()}>{t('err.reload')}</button>
      </div>
    </div>
  );
}
