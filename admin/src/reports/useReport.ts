import { useFetch, type FetchState } from '../api/useFetch';
import { useLang } from '../generic/useLang';
import { toQuery } from './params';
import type { ParamValues, ReportPage, ReportResult } from './types';

/** The API path of a report run (`export` for its Excel file: every row) with its parameters, and for the JSON answer a page of its rows. */
export function reportUrl(name: string, values: ParamValues, exportXlsx = false, page?: ReportPage): string {
  const q = toQuery(page && !exportXlsx ? { ...values, page: page.page, perPage: page.perPage } : values);
  return `/api/reports/${encodeURIComponent(name)}${exportXlsx ? '/export' : ''}${q ? `?${q}` : ''}`;
}

/** Runs a report (`GET /api/reports/:name?<params>&page=&perPage=`) whenever its parameters, the page or the language change. */
export function useReport(name: string | undefined, values: ParamValues, page?: ReportPage): FetchState<ReportResult> {
  const lang = useLang();
  return useFetch<ReportResult>(name ? reportUrl(name, values, false, page) : null, lang);
}
