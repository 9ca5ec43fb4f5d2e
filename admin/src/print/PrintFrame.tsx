import { useEffect, type ReactNode } from 'react';
import { Box, Button, GlobalStyles, ToggleButton, ToggleButtonGroup } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import PrintIcon from '@mui/icons-material/Print';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { PAPER, type Orientation, type Paper } from './passport';

interface Props {
  title: string;
  paper: Paper;
  /** portrait unless the content is too wide for it (default portrait) */
  orientation?: Orientation;
  onPaper: (p: Paper) => void;
  children: ReactNode;
}

/**
 * A printable sheet outside the app's layout: on screen a white A5 or A4 page on grey with a bar
 * (back, paper size, print); printed, only the page, sized and turned by `@page`. Its tables take
 * the sheet's width and wrap their cells: printed, nothing scrolls, so nothing may overflow.
 */
export function PrintFrame({ title, paper, orientation = 'portrait', onPaper, children }: Props) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const size = orientation === 'landscape' ? { width: PAPER[paper].height, height: PAPER[paper].width } : PAPER[paper];
  useEffect(() => {
    const before = document.title;
    document.title = title;
    return () => {
      document.title = before;
    };
  }, [title]);
  return (
    <Box
      sx={{ minHeight: '100vh', bgcolor: 'grey.200', py: 3, '@media print': { bgcolor: '#fff', py: 0, minHeight: 0 } }}
      data-testid="print-page"
      data-paper={paper}
      data-orientation={orientation}
    >
      {/* through emotion, whose <style> elements carry the page's CSP nonce (a bare <style> would be refused) */}
      <GlobalStyles
        styles={{
          '@page': { size: `${paper} ${orientation}`, margin: '8mm' },
          '@media print': { 'html, body': { background: '#fff !important' }, '.no-print': { display: 'none !important' } },
        }}
      />
      <Box className="no-print" sx={{ display: 'flex', gap: 1, justifyContent: 'center', alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => navigate(-1)} data-testid="print-back">
          {translate('admin.action.back')}
        </Button>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={paper}
          onChange={(_e, v: Paper | null) => v && onPaper(v)}
          aria-label={translate('admin.print.paper')}
        >
          {(Object.keys(PAPER) as Paper[]).map((p) => (
            <ToggleButton key={p} value={p} data-testid={`print-paper-${p}`}>
              {p}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Button variant="contained" startIcon={<PrintIcon />} onClick={() => window.print()} data-testid="print-now">
          {translate('admin.print.print')}
        </Button>
      </Box>
      <Box
        component="article"
        sx={{
          // on screen the whole sheet, its padding the printer's margins (@page margin 8 mm); printed, the area inside them
          width: `${size.width}mm`,
          minHeight: `${size.height}mm`,
          boxSizing: 'border-box',
          mx: 'auto',
          bgcolor: '#fff',
          p: '8mm',
          boxShadow: 3,
          display: 'flex',
          flexDirection: 'column',
          fontSize: paper === 'A5' ? '10pt' : '13pt',
          color: '#000',
          '@media print': { boxShadow: 'none', p: 0, width: `${size.width - 16}mm`, minHeight: `${size.height - 17}mm` },
          // a table never scrolls on paper: it takes the sheet's width, its cells wrap
          '& div:has(> table)': { overflow: 'visible !important' },
          '& table': { width: '100%', tableLayout: 'auto' },
          '& th, & td': { whiteSpace: 'normal', overflowWrap: 'break-word', px: '1.5mm', py: '0.8mm', fontSize: '0.85em' },
        }}
        data-testid="print-sheet"
      >
        {children}
      </Box>
    </Box>
  );
}
