import { useSyncExternalStore } from 'react';
import { request } from '../api/http';
import { addCaptions, apiCaptionsToI18next, I18N_CODE, type WireLang } from '../i18n';
import { MetaModel } from './model';
import type { ClientMeta } from './types';

/**
 * The /api/meta answer of the signed-in user in the language shown, outside React so that the
 * data and auth providers can read it too. Loading it also installs its captions into i18next.
 */
let current: MetaModel | null = null;
const listeners = new Set<() => void>();

export function getMetaModel(): MetaModel | null {
  return current;
}

export function setMetaModel(m: MetaModel | null): void {
  current = m;
  for (const l of listeners) l();
}

export function subscribeMeta(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useMetaModel(): MetaModel | null {
  return useSyncExternalStore(subscribeMeta, getMetaModel, getMetaModel);
}

const EMPTY = new MetaModel({ lang: 'uz', entities: [], menu: [], routes: [], captions: {} });

/** Like useMetaModel, for screens that only render once signed in (an empty model before). */
export function useMeta(): MetaModel {
  return useMetaModel() ?? EMPTY;
}

/** Fetches /api/meta in `lang`, installs its captions and resource names, and publishes it. */
export async function loadMeta(lang: WireLang): Promise<MetaModel> {
  const res = await request('/api/meta', { lang });
  const meta = (await res.json()) as ClientMeta;
  const model = new MetaModel(meta);
  const code = I18N_CODE[lang];
  const resourceNames = (captions: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const [resource, e] of [...model.byResource, ...model.paramResources]) {
      const name = captions[model.captionOf.get(resource) ?? e.caption] ?? captions[e.caption];
      if (name) out[`resources.${resource}.name`] = name;
    }
    return out;
  };
  if (meta.fallbackCaptions) {
    const uz = apiCaptionsToI18next(meta.fallbackCaptions);
    addCaptions('uz', { ...uz, ...resourceNames(uz) });
  }
  const own = apiCaptionsToI18next(meta.captions);
  addCaptions(code, { ...own, ...resourceNames(own) });
  setMetaModel(model);
  return model;
}
