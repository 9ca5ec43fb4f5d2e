import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadMetadata } from '../../api/meta/load.ts';
import { renderDocument } from '../../api/engine/document-render.ts';
import { printInWorker, printLimits, stopPrintWorkers } from '../../api/engine/document-print.ts';
import { largestTemplate, RESERVED_VALUES } from '../../test/support/large-template.ts';

/**
 * bench/print: what printing the heaviest documents costs (docs/template-documents.md, "Limits").
 * No database: the template at its size limit packed with placeholders, and documents filled to
 * the filled-length bound, each rendered (filled, HTML, PDF) in-process and through the print
 * pool's worker thread, cold (a new worker) and warm; and the event loop's worst delay in the
 * main thread while the worker prints. `node --import tsx bench/print/run.ts`.
 */
const limit = loadMetadata().entities.get('template-documents')!.fields.body.maxLength!;
const { maxChars } = printLimits();
const largest = largestTemplate(limit);
const X = 'Қўчқоров Ҳамид word '.repeat(100).slice(0, 2000);
const cases: [string, string, Record<string, string>][] = [
  [`template at its limit (${limit} characters, ${largest.placeholders} placeholders)`, largest.body, RESERVED_VALUES],
  [
    `filled to the bound: one paragraph, ${Math.floor(maxChars / 2001)} values of 2000`,
    `<p>${'<span data-field="X">X</span> '.repeat(Math.floor(maxChars / 2001))}</p>`,
    { X },
  ],
  [
    `filled to the bound: ${Math.floor(maxChars / 3) - 1} lines`,
    '<p><span data-field="X">X</span></p>',
    { X: 'ab\n'.repeat(Math.floor(maxChars / 3) - 1) },
  ],
  [
    `filled to the bound: one word of ${maxChars - 1000} letters`,
    '<p><span data-field="X">X</span></p>',
    { X: 'ў'.repeat(maxChars - 1000) },
  ],
];
const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;
const input = (body: string, values: Record<string, string>) => ({ body, values, title: 'bench', lang: 'uz', issuedAt: Date.now() });

const lag = monitorEventLoopDelay({ resolution: 10 });
for (const [name, body, values] of cases) {
  await stopPrintWorkers();
  lag.reset();
  lag.enable();
  let t = performance.now();
  await printInWorker(input(body, values));
  const cold = ms(t);
  t = performance.now();
  await printInWorker(input(body, values));
  lag.disable();
  console.log(`${name}: worker ${cold} (new worker), ${ms(t)} (warm); main loop's worst delay ${(lag.max / 1e6).toFixed(0)} ms`);
}
await stopPrintWorkers();

// the same in the main thread, as it was before the pool: the loop waits the whole time
for (const [name, body, values] of cases) {
  let t = performance.now();
  const r = await renderDocument({ ...input(body, values), maxChars });
  const first = ms(t);
  t = performance.now();
  await renderDocument({ ...input(body, values), maxChars });
  console.log(`${name}: in-process ${first} (first), ${ms(t)} (again); PDF ${r.ok ? `${(r.pdf.length / 1024).toFixed(0)} KB` : 'refused'}`);
}
