import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import Overlay from 'ol/Overlay';
import type { Region } from '../api';
import { useI18n, type Lang } from '../i18n';
import { navigate } from '../router';
import { LAYERS } from './layers';
import { layerLoader } from './layerLoader';
import { bindMapClicks } from './mapClicks';
import { addDataLayers, addRegionNames } from './mapLayers';
import { exposeForTests } from './mapTestHandle';
import { nextZoom, type EntityState, type Item, type MapApi, type PlantingsState, type Popup } from './mapTypes';
import { createSiteMap, fitUzbekistan, fromLonLat, retitleControls, toLonLat } from './olkit';

const ENTITY_DEBOUNCE_MS = 250;
/** the popup keeps this far (px) from the map's edges */
const POPUP_MARGIN = 16;
/** a map narrower than this (a phone) shows the popup as a sheet along its bottom */
export const SHEET_BELOW_PX = 560;

/**
 * The tree map on the element `el` gives it, built once: the region names, a vector layer per layer
 * of the switcher (each on as `enabledRef` says when it is built or toggled), the popup's overlay
 * on `popupEl`. Plantings load on every moveend, the other layers a moment after the view stops
 * moving; the view and the layers on are kept in the address. What each layer holds, the open
 * popup and whether the base map failed come back as state; `api` zooms, toggles and shows.
 */
export function useTreeMap({
  initial,
  regions,
  enabledRef,
}: {
  initial: { lat: number; lng: number; z: number } | null;
  regions: Region[];
  enabledRef: RefObject<Set<string>>;
}) {
  const { t, lang } = useI18n();
  const el = useRef<HTMLDivElement>(null);
  const api = useRef<MapApi | null>(null);
  const setNamesRef = useRef<((l: Lang) => void) | null>(null);
  const [plantings, setPlantings] = useState<Record<string, PlantingsState>>({});
  const [entities, setEntities] = useState<Record<string, EntityState>>({});
  const [popup, setPopup] = useState<Popup | null>(null);
  const [noBase, setNoBase] = useState(false);
  const [sheet, setSheet] = useState(false);
  const overlayRef = useRef<Overlay | null>(null);
  const popupEl = useMemo(() => {
    const d = document.createElement('div');
    d.className = 'map-popup-anchor';
    return d;
  }, []);
  const tRef = useRef(t);
  tRef.current = t;
  const langRef = useRef(lang);
  langRef.current = lang;
  const popupRef = useRef(popup);
  popupRef.current = popup;

  useEffect(() => {
    const target = el.current!;
    const isOn = (key: string) => enabledRef.current.has(key);
    const map = createSiteMap({
      target,
      t: tRef.current,
      onNoBase: () => setNoBase(true),
      center: initial ? [initial.lng, initial.lat] : undefined,
      zoom: initial?.z,
    });
    if (!initial) fitUzbekistan(map, 30, 6); // the whole country, counted by region

    const { sources, vlayers, board } = addDataLayers(map, isOn);
    const setNames = addRegionNames(map, regions, board);
    setNames(lang);

    const overlay = new Overlay({
      element: popupEl,
      positioning: 'bottom-center',
      offset: [0, -12],
      stopEvent: true,
      autoPan: { animation: { duration: 200 }, margin: POPUP_MARGIN },
    });
    map.addOverlay(overlay);
    overlayRef.current = overlay;
    // on a narrow map the popup is a sheet along the bottom of the screen (MapView), not a bubble over the place
    const show = (p: Popup | null) => {
      const narrow = target.clientWidth < SHEET_BELOW_PX;
      setPopup(p);
      setSheet(narrow);
      overlay.setPosition(p && !narrow ? fromLonLat([p.item.lng, p.item.lat]) : undefined);
    };

    const { load, unload, mark, abortAll } = layerLoader({ map, target, sources, lang: () => langRef.current, setPlantings, setEntities });
    for (const def of LAYERS) if (!isOn(def.key)) mark(def.key, 'off', 0);
    if (!isOn('trees')) {
      target.dataset.state = 'idle';
      target.dataset.count = '0';
    }

    const writeAddress = () => {
      const c = map.getView().getCenter();
      if (!c) return;
      const [lng, lat] = toLonLat(c);
      const zoom = Math.round((map.getView().getZoom() ?? 5) * 100) / 100;
      const on = LAYERS.filter((l) => isOn(l.key))
        .map((l) => l.key)
        .join(',');
      navigate(`/map?lat=${lat.toFixed(5)}&lng=${lng.toFixed(5)}&z=${zoom}${on === 'trees' ? '' : `&layers=${on}`}`, { replace: true });
    };

    let timer: ReturnType<typeof setTimeout> | undefined;
    map.on('moveend', () => {
      writeAddress();
      for (const def of LAYERS) if (def.source === 'plantings' && isOn(def.key)) void load(def);
      clearTimeout(timer);
      const pending = LAYERS.filter((def) => def.source === 'entity' && isOn(def.key));
      // the entity layers wait until the view stops moving (a drag's many moveends ask once)
      for (const def of pending) mark(def.key, 'loading');
      timer = setTimeout(() => {
        for (const def of pending) if (isOn(def.key)) void load(def);
      }, ENTITY_DEBOUNCE_MS);
    });

    const toggle = (key: string, on: boolean) => {
      const def = LAYERS.find((l) => l.key === key)!;
      for (const l of vlayers.get(key)!) l.setVisible(on);
      board.refresh();
      if (on) void load(def);
      else {
        unload(def);
        if (popupRef.current?.layer.key === key) show(null);
      }
      writeAddress();
    };

    const zoomTo = (item: Item) => {
      const view = map.getView();
      view.animate({ center: fromLonLat([item.lng, item.lat]), zoom: nextZoom(view.getZoom() ?? 5), duration: 400 });
    };
    api.current = { zoomTo, toggle, show };
    bindMapClicks(map, target, { show, zoomTo });
    exposeForTests(target, map, sources, board);

    const onResize = () => map.updateSize();
    window.addEventListener('resize', onResize);
    setNamesRef.current = setNames;
    return () => {
      clearTimeout(timer);
      abortAll();
      window.removeEventListener('resize', onResize);
      map.setTarget(undefined);
      map.dispose();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the map is built once; the language and the layers are applied below
  }, []);
  useEffect(() => {
    setNamesRef.current?.(lang);
  }, [lang]);
  useEffect(() => {
    retitleControls(el.current, t);
  }, [t]);
  useEffect(() => {
    if (!popup || sheet) return;
    // the popup's content is drawn by React after the overlay was placed: pan once it has its size
    const frame = requestAnimationFrame(() => overlayRef.current?.panIntoView({ animation: { duration: 200 }, margin: POPUP_MARGIN }));
    return () => cancelAnimationFrame(frame);
  }, [popup, sheet]);
  useEffect(() => {
    if (!popup) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') api.current?.show(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [popup]);

  return { el, api, plantings, entities, popup, popupEl, noBase, sheet };
}
