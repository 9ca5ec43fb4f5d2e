import { Component, lazy, Suspense, useEffect, useRef, type ComponentType, type ReactNode } from 'react';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { useI18n } from './i18n';
import { STATS } from './nav';
import { Landing } from './pages/Landing';
import { match, parseHash, useHash } from './router';
import { scrollToId, scrollToTop } from './scroll';

/** Every page but the landing is its own chunk, loaded when first opened. */
const Login = lazy(() => import('./pages/Login'));
const MyGardens = lazy(() => import('./pages/MyGardens'));
const News = lazy(() => import('./pages/News'));
const TreePassport = lazy(() => import('./pages/TreePassport'));
const MapPage = lazy(() => import('./pages/MapPage'));
const ReportPage = lazy(() => import('./pages/stats/ReportPage'));
const GreenAreas = lazy(() => import('./pages/green/GreenAreas'));
const ResidentAreas = lazy(() => import('./pages/green/ResidentAreas'));
const Control = lazy(() => import('./pages/Control'));
const Info = lazy(() => import('./pages/Info'));
const PlantingForm = lazy(() => import('./pages/PlantingForm'));
const PeopleFactForm = lazy(() => import('./pages/PeopleFactForm'));
const SuggestionForm = lazy(() => import('./pages/SuggestionForm'));
const ErrorPages = lazy(() => import('./pages/ErrorPages'));
const Verify = lazy(() => import('./pages/Verify'));

type Page = ComponentType<{ params: Record<string, string>; query: URLSearchParams; path: string }>;

const ROUTES: [string, Page][] = [
  ['/', Landing],
  ['/login', Login],
  ['/sing-up', Login],
  ['/my-gardens', MyGardens],
  ['/news', News],
  ['/news/:id', News],
  ['/tree/:id', TreePassport],
  ['/map', MapPage],
  ['/resident-planting-areas', ResidentAreas],
  ['/resident-planting-areas/:id', ResidentAreas],
  ['/green-area-garden-park', GreenAreas],
  ['/green-area-garden-park/:id', GreenAreas],
  // every statistics page is one public report (pages/stats/ReportPage.tsx)
  ...STATS.map((s): [string, Page] => [s.path, ReportPage]),
  ['/permits', Control],
  ['/illegal-loggers', Control],
  ['/population-seedlings', PlantingForm],
  ['/people-facts', PeopleFactForm],
  ['/suggestion', SuggestionForm],
  ['/verify', Verify],
  ['/verify/:code', Verify],
  ['/about', Info],
  ['/contacts', Info],
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
    if (first.current) {
      first.current = false;
      return;
    }
    scrollToTop();
    const deadline = performance.now() + 3000;
    const focusTitle = () => {
      const h1 = document.querySelector<HTMLElement>('main [data-page-title]');
      if (h1) h1.focus({ preventScroll: true });
      else if (performance.now() < deadline) requestAnimationFrame(focusTitle);
    };
    if (!loc.anchor) requestAnimationFrame(focusTitle);
  }, [loc.path]); // eslint-disable-line react-hooks/exhaustive-deps -- on navigation only, not when the anchor moves within the page

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
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error(error);
  }
  override render() {
    return this.state.failed ? <CrashPage /> : this.props.children;
  }
}

function CrashPage() {
  const { t } = useI18n();
  return (
    <div className="container">
      <div className="page-head">
        <h1 tabIndex={-1} data-page-title>
          {t('page.error')}
        </h1>
      </div>
      <div className="empty" role="alert">
        <p className="empty-text">{t('err.generic_text')}</p>
        <button type="button" className="btn" onClick={() => window.location.reload()}>
          {t('err.reload')}
        </button>
      </div>
    </div>
  );
}
