import { Box, Link as MuiLink, Table, TableBody, TableCell, TableFooter, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatCell, NUMERIC } from './cells';
import { drillHref } from './params';
import type { ReportColumn, ReportDrill, ReportRow } from './types';

interface Props {
  columns: ReportColumn[];
  rows: ReportRow[];
  totals?: Record<string, unknown> | null;
  drill?: ReportDrill | null;
  /** the parameters the report ran with (`$name` values of drill links) */
  params: Record<string, unknown>;
  caption: string;
}

/**
 * A report's rows: numbers right-aligned with space thousands (two decimals for decimals, money and
 * percentages), the drill column's cells as links to the detail, and a totals row of the columns
 * the report sums, captioned in the first column.
 */
export function ReportTable({ columns, rows, totals, drill, params, caption }: Props) {
  const translate = useTranslate();
  const hasTotals = !!totals && columns.some((c) => totals[c.name] !== undefined && totals[c.name] !== null);
  const align = (c: ReportColumn) => (NUMERIC.has(c.type) ? 'right' : 'left');
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table
        size="small"
        data-testid="report-table"
        aria-label={caption}
        sx={{
          '& th': { fontWeight: 600, verticalAlign: 'bottom' },
          '& .num': { whiteSpace: 'nowrap' },
          '& td:not(.num)': { minWidth: 120, maxWidth: 420 },
        }}
      >
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.name} align={align(c)} data-column={c.name}>
                {c.caption}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r, i) => (
            <TableRow key={String(r.id ?? i)} hover data-testid="report-row">
              {columns.map((c) => {
                const text = formatCell(c.type, r[c.name]);
                const href = drill && drill.column === c.name ? drillHref(drill, r, params) : null;
                return (
                  <TableCell
                    key={c.name}
                    align={align(c)}
                    data-column={c.name}
                    className={NUMERIC.has(c.type) || c.type === 'date' ? 'num' : undefined}
                  >
                    {href && text ? (
                      <MuiLink component={Link} to={href} data-testid="drill-link">
                        {text}
                      </MuiLink>
                    ) : (
                      text
                    )}
                  </TableCell>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
        {hasTotals && (
          <TableFooter
            sx={{ '& td': { fontSize: '0.875rem', color: 'text.primary', fontWeight: 600, borderTop: 2, borderColor: 'divider' } }}
          >
            <TableRow data-testid="report-totals">
              {columns.map((c, i) => {
                const v = totals![c.name];
                const text = v === undefined || v === null ? '' : formatCell(c.type, v);
                return (
                  <TableCell key={c.name} align={align(c)} data-column={c.name} className="num">
                    {i === 0 && !text ? translate('admin.report.total') : text}
                  </TableCell>
                );
              })}
            </TableRow>
          </TableFooter>
        )}
      </Table>
    </Box>
  );
}
