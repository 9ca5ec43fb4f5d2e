import { useState } from 'react';
import { Alert, Box, Button, CircularProgress } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { errorMessage, useFetch } from '../api/useFetch';
import { PrintFrame } from '../print/PrintFrame';
import { QrCode } from '../print/QrCode';
import type { Paper } from '../print/passport';
import { downloadIssuedPdf } from './download';

interface Issued {
  id: number;
  title: string;
  language: string;
  html: string;
  pdf: number | null;
  verify_code: string | null;
  verify_url: string | null;
}

/** A check code as printed: two groups of five (api/domain/verify-code.ts). */
const grouped = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`;

/**
 * `#/print/document/:id`: an issued document as it was printed — the page the server filled
 * (HTML it built itself from the template's blocks, so it carries no script or style of its own),
 * on an A4 sheet with the print button, and its server-made PDF to download.
 */
export function IssuedDocumentPage() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  const notify = useNotify();
  const [paper, setPaper] = useState<Paper>('A4');
  const doc = useFetch<Issued>(/^\d+$/.test(id) ? `/api/issued-documents/${id}` : null);
  const title = doc.data?.title ?? translate('admin.documents.print');
  return (
    <PrintFrame title={title} paper={paper} onPaper={setPaper}>
      {doc.loading && (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={translate('admin.report.loading')} />
        </Box>
      )}
      {doc.error && <Alert severity="error">{errorMessage(doc.error)}</Alert>}
      {doc.data && (
        <>
          <Box className="no-print" sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
            <Button
              size="small"
              startIcon={<DownloadIcon />}
              onClick={() => downloadIssuedPdf(doc.data!.id).catch((e: unknown) => notify(errorMessage(e), { type: 'error' }))}
              data-testid="download-pdf"
            >
              {translate('admin.documents.pdf')}
            </Button>
          </Box>
          <Box
            lang={doc.data.language === 'uk' ? 'uz-Cyrl' : doc.data.language}
            data-testid="issued-document"
            sx={{
              fontFamily: '"DejaVu Sans", Arial, sans-serif',
              fontSize: '12pt',
              lineHeight: 1.45,
              color: '#000',
              '& h1': { fontSize: '15pt', textAlign: 'center', mt: 0, mb: '12pt' },
              '& h2': { fontSize: '13pt', textAlign: 'center' },
              '& p': { mt: 0, mb: '6pt', textAlign: 'justify' },
              '& hr': { border: 0, borderTop: '1px solid #000', my: '10pt' },
            }}
            // the server built this HTML from the template's blocks: only text, paragraphs, headings, lists and marks
            dangerouslySetInnerHTML={{ __html: doc.data.html }}
          />
          {doc.data.verify_url && doc.data.verify_code && (
            // the public check of the document (decision 0075), as the PDF prints it at its foot
            <Box data-testid="document-verify" sx={{ display: 'flex', gap: '5mm', alignItems: 'flex-start', mt: '8mm', color: '#000' }}>
              <QrCode url={doc.data.verify_url} size={26} label={translate('admin.documents.verify')} />
              <Box sx={{ fontFamily: '"DejaVu Sans", Arial, sans-serif', fontSize: '9pt' }}>
                <div>{translate('admin.documents.verify')}</div>
                <Box
                  component="div"
                  data-testid="verify-code"
                  aria-label={translate('admin.documents.verify_code')}
                  sx={{ fontSize: '14pt', fontWeight: 700, letterSpacing: '1px', my: '1.5mm' }}
                >
                  {grouped(doc.data.verify_code)}
                </Box>
                <Box component="div" sx={{ fontSize: '8pt', wordBreak: 'break-all' }}>
                  {doc.data.verify_url}
                </Box>
              </Box>
            </Box>
          )}
        </>
      )}
    </PrintFrame>
  );
}
