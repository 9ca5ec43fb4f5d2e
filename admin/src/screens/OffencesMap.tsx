import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Alert, Box, Card, CardContent, Chip, CircularProgress, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { useMeta } from '../meta/store';
import { errorMessage } from '../api/useFetch';
import { formatInteger } from '../generic/format';
import { ReportParamsBar } from '../reports/ReportParamsBar';
import { useReportParams } from '../reports/useReportParams';
import { toQuery } from '../reports/params';
import type { ReportParamDef } from '../reports/types';
import type { RouteInfo } from '../meta/model';
import type { ViewState } from './OffencesMapView';
import { clusterRadius, LEGEND_SIZES, stateColor } from './offenceStates';

/** OpenLayers and the map: a chunk of their own, fetched when the page opens. */
const OffencesMapView = lazy(() => import('./OffencesMapView'));

const ROUTE = 'ecofund-offences/offences-map';
const STATES = ['draft', 'review', 'returned', 'mvd', 'closed'];

/** The map's filters: the offences list's own, by its names (the API checks them as the list does). */
function filterDefs(states: string[]): Record<string, ReportParamDef> {
  return {
    from_offence_date: { type: 'date', caption: 'admin.offences_map.from' },
    to_offence_date: { type: 'date', caption: 'admin.offences_map.to' },
    region_id: { type: 'ref', ref: 'regions' },
    offence_type_id: { type: 'ref', ref: 'offence-type' },
    status: { type: 'enum', values: states, caption: 'fields.offence_status' },
  };
}

/**
 * The offences map (`#/ecofund-offences/offences-map`, docs/offences.md "Offences map"): the
 * offences the user may read that have a place — counts per region zoomed out, clusters coloured by
 * their states' shares, single offences zoomed in (a click opens the offence) — filtered by period,
 * region, offence type and state, the filters kept in the address. A legend of the states' colours
 * and what the view holds are beside it; everything is read through the catalogues.
 */
export function OffencesMap() {
  const translate = useTranslate();
  const model = useMeta();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const route = (model.routeFor(pathname) ?? model.routes.find((r) => r.path === ROUTE)) as RouteInfo;
  const offences = model.byName.get('offences');
  const states = useMemo(() => (offences?.fields.find((f) => f.name === 'status')?.values as string[] | undefined) ?? STATES, [offences]);
  const defs = useMemo(() => filterDefs(states), [states]);
  const { values, setValues } = useReportParams(route, defs);
  const query = toQuery(values);
  const [view, setView] = useState<ViewState>({ status: 'loading', items: [] });
  const resource = model.resourceOf('offences');
  const open = useCallback(
    (id: number) => {
      if (resource) navigate(model.showPath(resource, id));
    },
    [navigate, model, resource],
  );
  const answer = view.answer;
  const layer = answer?.layer;
  const total = answer ? (answer.total ?? answer.items.length) : undefined;

  return (
    <Box sx={{ mt: 2, mb: 4 }} data-testid="page-screen-offences-map">
      <Title title={translate(route?.caption ?? 'menu.offences_map')} />
      <Card>
        <CardContent sx={{ pb: '12px !important' }}>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 500, mb: 2 }}>
            {translate(route?.caption ?? 'menu.offences_map')}
          </Typography>
          <ReportParamsBar defs={defs} values={values} onChange={setValues} />
        </CardContent>
      </Card>

      <Card sx={{ mt: 2 }}>
        <CardContent>
          <Box
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1.5, minHeight: 32 }}
            data-testid="offences-map-status"
          >
            {layer && (
              <Chip
                size="small"
                color="primary"
                variant="outlined"
                role="status"
                data-testid="offences-map-layer"
                label={translate(`admin.offences_map.layer_${layer}`)}
              />
            )}
            {total !== undefined && (
              <Typography variant="body2" data-testid="offences-map-total">
                {translate('admin.offences_map.in_view', { n: formatInteger(total) })}
              </Typography>
            )}
            {view.status === 'loading' && <CircularProgress size={18} aria-label={translate('admin.offences_map.loading')} />}
            {answer?.truncated && (
              <Chip
                size="small"
                color="warning"
                role="status"
                label={translate('admin.offences_map.truncated')}
                data-testid="offences-map-truncated"
              />
            )}
            {view.status === 'idle' && answer && answer.items.length === 0 && (
              <Typography variant="body2" color="text.secondary" role="status" data-testid="offences-map-empty">
                {translate('admin.offences_map.empty')}
              </Typography>
            )}
          </Box>
          <Box
            component="ul"
            aria-label={translate('admin.offences_map.legend')}
            data-testid="offences-map-legend"
            sx={{ listStyle: 'none', p: 0, m: 0, mb: 1.5, display: 'flex', flexWrap: 'wrap', gap: { xs: 1, sm: 2 }, alignItems: 'center' }}
          >
            <Typography component="li" variant="body2" sx={{ fontWeight: 500 }}>
              {translate('admin.offences_map.legend')}:
            </Typography>
            {states.map((s) => (
              <Box component="li" key={s} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }} data-state={s}>
                {/* a colour swatch (a rounded square, a share of a cluster's ring), not a round mark a radio button would be mistaken for */}
                <Box
                  component="span"
                  aria-hidden
                  data-testid="offences-map-swatch"
                  sx={{ width: 18, height: 12, borderRadius: '3px', bgcolor: stateColor(s), flex: 'none' }}
                />
                <Typography variant="body2" component="span">
                  {translate(`enums.status.${s}`)}
                </Typography>
              </Box>
            ))}
          </Box>
          <Box
            component="ul"
            aria-label={translate('admin.offences_map.sizes')}
            data-testid="offences-map-sizes"
            sx={{ listStyle: 'none', p: 0, m: 0, mb: 1.5, display: 'flex', flexWrap: 'wrap', gap: { xs: 1, sm: 2 }, alignItems: 'center' }}
          >
            <Typography component="li" variant="body2" sx={{ fontWeight: 500 }}>
              {translate('admin.offences_map.sizes')}:
            </Typography>
            {LEGEND_SIZES.map((n) => {
              // drawn at the map's own radius, as a cluster's ring around its count
              const d = clusterRadius(n) * 2;
              return (
                <Box component="li" key={n} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }} data-size={n}>
                  <Box
                    component="span"
                    aria-hidden
                    sx={{
                      width: d,
                      height: d,
                      borderRadius: '50%',
                      border: '3px solid',
                      borderColor: 'grey.600',
                      bgcolor: 'common.white',
                      flex: 'none',
                    }}
                  />
                  <Typography variant="body2" component="span">
                    {translate('admin.offences_map.size', { n: formatInteger(n) })}
                  </Typography>
                </Box>
              );
            })}
          </Box>
          {view.status === 'error' && (
            <Alert severity="error" sx={{ mb: 1.5 }} data-testid="offences-map-error">
              {translate('admin.offences_map.error')} {translate(errorMessage(view.error), { _: errorMessage(view.error) })}
            </Alert>
          )}
          <Suspense
            fallback={
              <Box sx={{ height: 320, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                <CircularProgress aria-label={translate('admin.map.loading')} />
              </Box>
            }
          >
            <OffencesMapView query={query} onState={setView} onOpen={open} label={translate('admin.offences_map.label')} />
          </Suspense>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
            {translate('admin.offences_map.hint')}
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}
