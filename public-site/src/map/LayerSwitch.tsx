import { useState } from 'react';
import { fmtInt } from '../format';
import { useI18n } from '../i18n';
import { LAYERS } from './layers';

/** The layer switcher: a checkbox per layer with its colour and what it shows in the view. */
export function LayerSwitch({
  enabled,
  countOf,
  onToggle,
}: {
  enabled: Set<string>;
  countOf: (key: string) => number | null;
  onToggle: (key: string, on: boolean) => void;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(() => window.matchMedia('(min-width: 900px)').matches);
  return (
    <details className="layer-switch" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="layer-switch">
      <summary>
        {t('map.layers')} ({enabled.size})
      </summary>
      <fieldset>
        <legend className="visually-hidden">{t('map.layers')}</legend>
        <ul>
          {LAYERS.map((l) => {
            const n = enabled.has(l.key) ? countOf(l.key) : null;
            return (
              <li key={l.key}>
                <label>
                  <input
                    type="checkbox"
                    checked={enabled.has(l.key)}
                    onChange={(e) => onToggle(l.key, e.target.checked)}
                    data-testid={`layer-${l.key}`}
                  />
                  <span className="swatch" style={{ background: l.color }} aria-hidden="true" />
                  <span>{t(l.title)}</span>
                  {n !== null && <span className="layer-count muted small">{fmtInt(n)}</span>}
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
    </details>
  );
}
