import { filenameOf, LONG_TIMEOUT, requestBlob } from '../api/http';
import { saveBlob } from '../api/files';

/** Downloads an issued document's PDF (made on the server when it was issued) under its title. */
export async function downloadIssuedPdf(id: number): Promise<void> {
  const { res, blob } = await requestBlob(`/api/issued-documents/${id}/pdf`, {
    headers: { Accept: 'application/pdf' },
    timeout: LONG_TIMEOUT,
  });
  saveBlob(blob, filenameOf(res, `document-${id}.pdf`));
}
