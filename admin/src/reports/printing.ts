/** A report's table of more columns than this is printed on a landscape sheet. */
export const REPORT_PORTRAIT_MAX_COLUMNS = 6;

export const reportOrientation = (columns: number): 'portrait' | 'landscape' =>
  columns > REPORT_PORTRAIT_MAX_COLUMNS ? 'landscape' : 'portrait';
