import { parentPort } from 'node:worker_threads';
import { renderDocument, type RenderInput } from './document-render.ts';

/**
 * A print worker thread (document-print.ts starts it through document-worker.mjs): renders one
 * document a message and answers with its HTML, text and PDF (the PDF's bytes transferred, not
 * copied). It says `ready` once its modules are loaded, so its start is not counted in a print's
 * time bound.
 */
const port = parentPort!;
port.on('message', async (job: RenderInput & { id: number }) => {
  try {
    const out = await renderDocument(job);
    port.postMessage({ id: job.id, out }, out.ok ? [out.pdf.buffer as ArrayBuffer] : []);
  } catch (err) {
    port.postMessage({ id: job.id, error: String((err as Error)?.stack ?? err) });
  }
});
// pdfkit is loaded on the first PDF: load it now, before the first print's clock starts
await import('pdfkit');
port.postMessage({ ready: true });
