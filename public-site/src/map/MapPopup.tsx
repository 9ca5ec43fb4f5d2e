import { useEffect, useRef } from 'react';
import { useI18n } from '../i18n';
import { href } from '../router';
import type { Popup } from './mapTypes';

/**
 * An entity layer's item on the map: its layer, its title and a link to its page; over its place,
 * or (`sheet`, a phone) along the bottom of the screen. The keyboard goes to its × when it opens.
 */
export function MapPopup({ popup, onClose, sheet = false }: { popup: Popup; onClose: () => void; sheet?: boolean }) {
  const { t } = useI18n();
  const { layer, item } = popup;
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeRef.current?.focus({ preventScroll: true });
  }, [item]);
  return (
    <div className={sheet ? 'map-popup map-sheet' : 'map-popup'} role="dialog" aria-label={item.title} data-testid="map-popup">
      <button ref={closeRef} type="button" className="popup-close" onClick={onClose} aria-label={t('nav.close_popup')}>
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
