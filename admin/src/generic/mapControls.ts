import type Collection from 'ol/Collection';
import type Control from 'ol/control/Control';
import { defaults as defaultControls } from 'ol/control/defaults';

type Translate = (key: string) => string;

/**
 * The back-office maps' controls (zoom, reset rotation, attributions) with their tooltips in the
 * user's language: OpenLayers' own say "Zoom in", "Reset rotation" and "Attributions" in English.
 */
export function mapControls(translate: Translate): Collection<Control> {
  return defaultControls({
    zoomOptions: { zoomInTipLabel: translate('admin.map.zoom_in'), zoomOutTipLabel: translate('admin.map.zoom_out') },
    rotateOptions: { tipLabel: translate('admin.map.reset_rotation') },
    attributionOptions: { tipLabel: translate('admin.map.attributions') },
  });
}

/** The controls' tooltips again, in the language now chosen (the map is built once). */
export function retitleControls(target: HTMLElement | null, translate: Translate): void {
  if (!target) return;
  const set = (selector: string, key: string) =>
    target.querySelectorAll<HTMLElement>(selector).forEach((b) => {
      b.title = translate(key);
    });
  set('.ol-zoom-in', 'admin.map.zoom_in');
  set('.ol-zoom-out', 'admin.map.zoom_out');
  set('.ol-rotate button', 'admin.map.reset_rotation');
  set('.ol-attribution button', 'admin.map.attributions');
}
