import { useEffect, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { AdminContext, AdminUI, CustomRoutes, Resource, ResourceContextProvider, localStorageStore, type I18nProvider } from 'react-admin';
import { Route } from 'react-router-dom';
import { authProvider } from './api/authProvider';
import { dataProvider } from './api/dataProvider';
import { getSession, clearSession, setLogoutReason } from './api/session';
import { CODES } from './api/http';
import { createI18nProvider, currentCode, I18N_CODE, STATIC_RESOURCES, wireLangOf, type WireLang } from './i18n';
import { rememberedLang } from './lang';
import { loadMeta, useMetaModel } from './meta/store';
import { AppNotification } from './layout/AppNotification';
import { NamedSpinners } from './layout/NamedSpinners';
import { ProfilePage } from './layout/ProfilePage';
import { LoginPage } from './layout/LoginPage';
import { CatchAll } from './pages/CatchAll';
import { Forbidden } from './pages/Forbidden';
import { NotFound } from './pages/NotFound';
import { ErrorPage } from './pages/ErrorPage';
import { ExtensionsContext } from './generic/extensions';
import { EXTENSIONS } from './screens/registry';
import { titleOf } from './generic/titleOf';
import { theme } from './theme';
import { lazyNamed } from './lazyNamed';

// the first screen (the login form) loads only what it shows; the signed-in back-office — its
// layout and menu, the generated pages, the special screens, printing — comes in chunks of its own
const AppLayout = lazyNamed(() => import('./layout/AppLayout'), 'AppLayout', <Loading />);
const Dashboard = lazyNamed(() => import('./pages/Dashboard'), 'Dashboard');
const EntityCreate = lazyNamed(() => import('./generic/EntityCreate'), 'EntityCreate');
const EntityEdit = lazyNamed(() => import('./generic/EntityEdit'), 'EntityEdit');
const EntityList = lazyNamed(() => import('./generic/EntityList'), 'EntityList');
const EntityShow = lazyNamed(() => import('./generic/EntityShow'), 'EntityShow');
const ParamListPage = lazyNamed(() => import('./pages/RoutePages'), 'ParamListPage');
const ReportPage = lazyNamed(() => import('./pages/RoutePages'), 'ReportPage');
const ScreenPage = lazyNamed(() => import('./pages/RoutePages'), 'ScreenPage');
const PrintPage = lazyNamed(() => import('./print/PrintPage'), 'PrintPage', <Loading />);
const IssuedDocumentPage = lazyNamed(() => import('./documents/IssuedDocumentPage'), 'IssuedDocumentPage', <Loading />);

const store = localStorageStore('1', 'ecofond');

/** The language to start in: the one chosen in this browser, else the signed-in user's, else uz. */
function startLang(): WireLang {
  const chosen = rememberedLang();
  if (chosen) return chosen;
  const code = getSession()?.user.lang_code;
  return code === 'uk' || code === 'ru' ? code : 'uz';
}

function Loading() {
  return (
    <Box sx={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      {/* named before the i18n provider is made: from the catalogues the bundle holds anyway */}
      <CircularProgress aria-label={STATIC_RESOURCES[I18N_CODE[startLang()]]['ra.page.loading']} />
    </Box>
  );
}

/**
 * The whole back-office, generated from /api/meta: one react-admin resource per entity the user
 * may read (named after its menu route), lists on menu routes with parameters, the spec's special
 * screens (screens/registry.ts), the menu of the metadata, and pages for the rest.
 */
export function App() {
  const [i18nProvider, setI18nProvider] = useState<I18nProvider | null>(null);
  const model = useMetaModel();

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const lang = startLang();
      // react-admin keeps the locale in its store; start both at the same language
      store.setItem('locale', I18N_CODE[lang]);
      const provider = await createI18nProvider(lang);
      if (getSession()) {
        try {
          await loadMeta(lang);
        } catch (err) {
          // an expired session signs in again; other failures show on the pages
          const e = err as { status?: number; body?: { code?: number } };
          if (e.status === 401) {
            clearSession();
            setLogoutReason(e.body?.code === CODES.sessionExpired ? 'admin.errors.session_expired' : 'ra.notification.logged_out');
          }
        }
      }
      if (!cancelled) setI18nProvider(provider);
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  if (!i18nProvider) return <Loading />;

  return (
    <ExtensionsContext.Provider value={EXTENSIONS}>
      {/* react-admin's Admin in its two halves, so that every screen — the layout's, the sign-in
          page, the print pages without a layout — names its spinners in the language shown
          (NamedSpinners needs the catalogues and the theme of the first half) */}
      <AdminContext dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} store={store} theme={theme}>
        <NamedSpinners>
          <AdminUI
            title="admin.title"
            layout={AppLayout}
            loginPage={LoginPage}
            dashboard={Dashboard}
            catchAll={CatchAll}
            accessDenied={() => <Forbidden />}
            error={ErrorPage}
            notification={AppNotification}
            loading={Loading}
            requireAuth
            disableTelemetry
          >
            {model &&
              [...model.byResource.entries()].map(([name, e]) => {
                // a record route (`subject/:subjects_id`) makes `#/<resource>/<id>` the row's page, a route
                // under the resource (`plantings/:params`) owns it: the form moves to `…/<id>/edit`
                const record = model.recordResources.has(name);
                const moved = model.formMoved(name);
                return (
                  <Resource
                    key={name}
                    name={name}
                    list={EntityList}
                    create={EntityCreate}
                    edit={moved ? undefined : EntityEdit}
                    hasEdit
                    show={EntityShow}
                    recordRepresentation={(r) => titleOf(e, r, wireLangOf(currentCode()))}
                  >
                    {moved && <Route path=":id/edit/*" element={<EntityEdit />} />}
                    {record && <Route path=":id" element={<EntityShow />} />}
                  </Resource>
                );
              })}
            <CustomRoutes>
              <Route path="/error-403" element={<Forbidden />} />
              <Route path="/error-404" element={<NotFound />} />
              <Route path="/error" element={<ErrorPage />} />
              <Route path="/profile" element={<ProfilePage />} />
              {/* a route right under a resource would take its `create` (static beats `:param`) */}
              {model &&
                [...model.shadowedResources].map((name) => (
                  <Route
                    key={`${name}/create`}
                    path={`/${name}/create`}
                    element={
                      <ResourceContextProvider value={name}>
                        <EntityCreate />
                      </ResourceContextProvider>
                    }
                  />
                ))}
              {model?.routes
                .filter((r) => r.kind === 'param-list')
                .map((r) => (
                  <Route key={r.path} path={`/${r.path}`} element={<ParamListPage route={r} />} />
                ))}
              {model?.routes
                .filter((r) => r.kind === 'report')
                .map((r) => (
                  <Route key={r.path} path={`/${r.path}`} element={<ReportPage route={r} />} />
                ))}
              {model?.routes
                .filter((r) => r.kind === 'screen' && EXTENSIONS.screens[r.path])
                .map((r) => (
                  <Route key={r.path} path={`/${r.path}`} element={<ScreenPage route={r} screen={EXTENSIONS.screens[r.path]} />} />
                ))}
            </CustomRoutes>
            <CustomRoutes noLayout>
              <Route path="/print/document/:id" element={<IssuedDocumentPage />} />
              <Route path="/print/:entity/:id" element={<PrintPage />} />
            </CustomRoutes>
          </AdminUI>
        </NamedSpinners>
      </AdminContext>
    </ExtensionsContext.Provider>
  );
}
