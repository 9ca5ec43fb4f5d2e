import { useI18n } from '../i18n';
import { href } from '../router';
import type { Popup } from './mapTypes';

/** An entity layer's item on the map: its layer, its title and a link to its page. */
export function MapPopup({ popup, onClose }: { popup: Popup; onClose: () => void }) {
  const { t } = useI18n();
  const { layer, item } = popup;
  return (
    <div className="map-popup" role="dialog" aria-label={item.title} data-testid="map-popup">
      <button type="button" className="popup-close" onClick={onClose} aria-label={t('nav.close_popup')}>
        ×
      </button>
      <p className="popup-layer small">
        <span className="swatch" style={{ background: layer.color }} aria-hidden="true" /> {t(layer.title)}
      </p>
      <p className="popup-title">{item.title || `№ ${item.id}`}</p>
      {layer.detail && (
        <p>
          <a href={href(layer.detail(item.id))} data-testid="popup-link">
            {t('map.open_page')} →
          </a>
        </p>
      )}
    </div>
  );
}
