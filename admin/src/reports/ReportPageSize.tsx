import { GlobalStyles } from '@mui/material';
import { reportOrientation } from './printing';

/**
 * A report screen's printed sheet: A4, turned to landscape when its table has more columns than a
 * portrait sheet holds readably (the back-office's print styles make the table fit the sheet).
 */
export function ReportPageSize({ columns }: { columns: number }) {
  return <GlobalStyles styles={{ '@page': { size: `A4 ${reportOrientation(columns)}`, margin: '10mm' } }} />;
}
