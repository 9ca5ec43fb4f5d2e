import { useFetch, type FetchState } from '../api/useFetch';
import { useLang } from '../generic/fields';
import { toQuery } from './params';
import type { ParamValues, ReportResult } from './types';

/** The API path of a report run (`export` for its Excel file) with its parameters. */
export function reportUrl(name: string, values: ParamValues, exportXlsx = false): string {
  const q = toQuery(values);
  return `/api/reports/${encodeURIComponent(name)}${exportXlsx ? '/export' : ''}${q ? `?${q}` : ''}`;
}

/** Runs a report (`GET /api/reports/:name?<params>`) whenever its parameters or the language change. */
export function useReport(name: string | undefined, values: ParamValues): FetchState<ReportResult> {
  const lang = useLang();
  return useFetch<ReportResult>(name ? reportUrl(name, values) : null, lang);
}
