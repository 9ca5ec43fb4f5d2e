import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pack } from '../../shared/precompress.ts';

/**
 * What a page of a built site loads, read from Vite's manifest (dist/.vite/manifest.json, written
 * by `build.manifest`): index.html's entry and every chunk it imports statically (the
 * `modulepreload` links of index.html), plus — for a screen further in — the chunks its lazy
 * imports bring, with theirs. Sizes are those of the files the server sends: the build's .br and
 * .gz copies (shared/precompress.ts), compressed here the same way when a file has none.
 */

export interface ManifestChunk {
  file: string;
  src?: string;
  /** a chunk's name (its module's, for a shared chunk: `EntityList`) */
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(dist: string): Manifest {
  const file = join(dist, '.vite', 'manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: build the site first (npm run build:admin && npm run build:public)`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/**
 * The files loaded when the chunks `keys` load (manifest keys, e.g. `index.html` or
 * `src/pages/MapPage.tsx`, or a shared chunk's name): each one's file and, transitively, the chunks it imports statically.
 * JavaScript and CSS apart, in load order, each once.
 */
export function filesOf(manifest: Manifest, keys: readonly string[]): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    // a chunk by its key (`src/pages/MapPage.tsx`), else by its name: a module two chunks import
    // lazily is a shared chunk, keyed by its hashed file (`_EntityList-DD23CxeW.js`, name `EntityList`)
    const key = name in manifest ? name : Object.keys(manifest).find((k) => manifest[k].name === name && k.startsWith('_'));
    if (!key) throw new Error(`the manifest has no chunk "${name}": was it renamed? (bench/bundle-size/run.ts names them)`);
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    for (const dep of chunk.imports ?? []) visit(dep);
    if (chunk.file.endsWith('.js')) js.push(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
  };
  for (const k of keys) visit(k);
  return { js, css: [...css] };
}

export interface Sizes {
  files: number;
  raw: number;
  gzip: number;
  brotli: number;
}

/** The bytes of `files` (paths relative to `dist`) as they are, gzip'd and Brotli'd. */
export async function sizesOf(dist: string, files: readonly string[]): Promise<Sizes> {
  const total: Sizes = { files: files.length, raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const path = join(dist, f);
    const text = readFileSync(path);
    total.raw += text.length;
    if (existsSync(`${path}.br`) && existsSync(`${path}.gz`)) {
      total.brotli += readFileSync(`${path}.br`).length;
      total.gzip += readFileSync(`${path}.gz`).length;
    } else {
      // the build leaves files under 1 KB as they are, and so does the server; a larger one without
      // copies (a build without the plugin) is measured as the plugin would have compressed it
      const packed = await pack(text);
      total.brotli += text.length < 1024 ? text.length : packed.brotli.length;
      total.gzip += text.length < 1024 ? text.length : packed.gzip.length;
    }
  }
  return total;
}
