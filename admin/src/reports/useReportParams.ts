import { useCallback, useMemo } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PARAMS_SEGMENT, type RouteInfo } from '../meta/model';
import { todayTashkent } from '../generic/format';
import { decodeParamsSegment, effectiveParams, encodeParamsSegment, searchToRecord, toQuery } from './params';
import type { ParamValues, ReportParamDef } from './types';

export interface ReportParamsState {
  /** the parameters the report runs with: the URL's where they fit, else the defaults */
  values: ParamValues;
  /** puts new parameters into the URL (which runs the report again) */
  setValues: (values: Record<string, unknown>) => void;
  /** the parameters the URL names (the others are their defaults) */
  given: string[];
}

/**
 * A report's parameters kept in the URL, so that a report can be linked, reloaded and gone back
 * to: a `:params` route keeps them in its segment (`plan-execution-by-org/org_id%3D5%3Byear%3D2026`),
 * any other in its query (`regions-green-rating?year=2025`). Other route parameters
 * (`report/:region_id`) are parameters too.
 */
export function useReportParams(route: RouteInfo, defs: Record<string, ReportParamDef> | undefined): ReportParamsState {
  const routeParams = useParams();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const inSegment = route.params.includes(PARAMS_SEGMENT);
  const segment = inSegment ? routeParams[PARAMS_SEGMENT] : undefined;
  const searchKey = search.toString();

  // the route's other parameters (`report/:region_id`) are report parameters too
  const others = route.params
    .filter((p) => p !== PARAMS_SEGMENT)
    .map((p) => [p, routeParams[p]] as const)
    .filter(([, v]) => v !== undefined);
  const othersKey = JSON.stringify(others);
  const raw = useMemo(
    () => ({
      ...Object.fromEntries(JSON.parse(othersKey) as [string, string][]),
      ...(inSegment ? decodeParamsSegment(segment) : searchToRecord(searchKey)),
    }),
    [othersKey, inSegment, segment, searchKey],
  );

  const today = todayTashkent();
  const values = useMemo(() => effectiveParams(defs, raw, today), [defs, raw, today]);

  const setValues = useCallback(
    (next: Record<string, unknown>) => {
      if (inSegment) {
        let path = `/${route.path.replace(`:${PARAMS_SEGMENT}`, encodeParamsSegment(next))}`;
        for (const p of route.params)
          if (p !== PARAMS_SEGMENT) path = path.replace(`:${p}`, encodeURIComponent(String(routeParams[p] ?? '')));
        navigate(path, { replace: true });
      } else {
        setSearch(toQuery(next), { replace: true });
      }
    },
    [inSegment, route.path, route.params, routeParams, navigate, setSearch],
  );

  const given = useMemo(() => Object.keys(raw).filter((k) => raw[k] !== undefined && raw[k] !== ''), [raw]);
  return { values, setValues, given };
}
