import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/**
 * The sites' files compressed once, at build time, at the highest levels — Brotli quality 11 and
 * gzip level 9, too slow to run per answer — written beside each file as `<file>.br` and
 * `<file>.gz`. The server sends the one the browser accepts (api/http/static.ts), and the bundle
 * budget (bench/bundle-size/run.ts) measures the same files. docs/decisions/0053.
 */

const br = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text the build writes; index.html is left out, the server rewrites it per answer. */
export const PRECOMPRESSED = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest']);
/** Smaller files go as they are (the same bound as the API's, api/http/compress.ts). */
export const PRECOMPRESS_MIN = 1024;

export interface Packed {
  raw: number;
  gzip: number;
  brotli: number;
}

/** `text` as the server sends it: its Brotli and gzip forms. */
export async function pack(text: Buffer): Promise<{ brotli: Buffer; gzip: Buffer }> {
  const [b, g] = await Promise.all([
    br(text, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gz(text, { level: 9 }),
  ]);
  return { brotli: b, gzip: g };
}

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` (recursively) above the bound. */
export async function precompressDir(dir: string): Promise<Map<string, Packed>> {
  const done = new Map<string, Packed>();
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    // not the build's own notes (dist/.vite: the manifest)
    .filter((d) => d.isFile() && PRECOMPRESSED.has(extname(d.name)) && !d.parentPath.split(/[\\/]/).includes('.vite'))
    .map((d) => join(d.parentPath, d.name));
  await Promise.all(
    files.map(async (file) => {
      const text = await readFile(file);
      if (text.length < PRECOMPRESS_MIN) return;
      const { brotli, gzip: g } = await pack(text);
      await Promise.all([writeFile(`${file}.br`, brotli), writeFile(`${file}.gz`, g)]);
      done.set(file, { raw: text.length, gzip: g.length, brotli: brotli.length });
    }),
  );
  return done;
}

/** The Vite plugin: after a production build has written its files, their compressed copies. */
export function precompress(): Plugin {
  let config: ResolvedConfig | undefined;
  return {
    name: 'ecofond-precompress',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    async closeBundle() {
      if (!config) return;
      const packed = await precompressDir(resolve(config.root, config.build.outDir));
      let raw = 0;
      let brotli = 0;
      for (const p of packed.values()) {
        raw += p.raw;
        brotli += p.brotli;
      }
      config.logger.info(
        `precompressed ${packed.size} files: ${(raw / 1024).toFixed(0)} kB → ${(brotli / 1024).toFixed(0)} kB Brotli (.br and .gz beside each)`,
      );
    },
  };
}
