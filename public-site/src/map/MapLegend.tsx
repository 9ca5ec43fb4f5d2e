import { fmtInt } from '../format';
import { useI18n } from '../i18n';
import { shareScale } from './bubbleBoard';
import { legendSamples } from './bubbles';
import { LAYERS } from './layers';
import type { PlantingsState } from './mapTypes';

/**
 * The map's legend under it, in the page's language: sample bubbles of round counts drawn at the
 * radii the map draws them (bubbles.ts, the view's shared scale), what a dashed line means, and
 * the irrigated trees' ring when that layer is on. Nothing to show while no bubble is on the map.
 */
export function MapLegend({ enabled, plantings }: { enabled: Set<string>; plantings: Record<string, PlantingsState> }) {
  const { t } = useI18n();
  const keys = ['trees', 'irrigation'].filter((k) => enabled.has(k));
  const scale = shareScale(keys.map((k) => plantings[k]?.scale));
  if (!scale) return <p className="muted small">{t('map.legend')}</p>;
  const samples = legendSamples(scale.max, scale.maxRadius);
  const big = samples[0]?.r ?? scale.maxRadius;
  // the circles stand on one baseline; each count beside its circle's top, at least a line below the one above
  const base = 2 * big + 8;
  const rows: { count: number; r: number; top: number; y: number }[] = [];
  for (const sample of samples) {
    const top = base - 2 * sample.r;
    const prev = rows[rows.length - 1];
    rows.push({ ...sample, top, y: Math.max(top + 4, prev ? prev.y + 14 : 0) });
  }
  const h = Math.max(base + 2, (rows[rows.length - 1]?.y ?? 0) + 4);
  // room on the right for the longest count (about 8 px a character at the legend's size)
  const w = 2 * big + 16 + 8 * fmtInt(samples[0]?.count ?? 0).length;
  const trees = LAYERS.find((l) => l.key === (keys[0] ?? 'trees'))!;
  const irrigation = LAYERS.find((l) => l.irrigation)!;
  return (
    <figure className="map-legend" data-testid="map-legend">
      <figcaption className="visually-hidden">{t('map.legend_title')}</figcaption>
      <div className="map-legend-row">
        <svg
          width={w}
          height={h}
          viewBox={`0 0 ${w} ${h}`}
          role="img"
          aria-label={samples.map((s) => fmtInt(s.count)).join(', ')}
          className="map-legend-bubbles"
          data-testid="map-legend-bubbles"
        >
          {rows.map((s) => (
            <g key={s.count} data-count={s.count} data-r={s.r}>
              <circle cx={big + 2} cy={base - s.r} r={s.r} fill={`${trees.color}40`} stroke={trees.color} strokeWidth={1.5} />
              <polyline
                points={`${big + 2},${s.top} ${2 * big + 4},${s.top} ${2 * big + 10},${s.y - 4}`}
                fill="none"
                stroke="#78909c"
                strokeWidth={1}
              />
              <text x={2 * big + 13} y={s.y} className="num">
                {fmtInt(s.count)}
              </text>
            </g>
          ))}
        </svg>
        <div className="map-legend-text small">
          <p>{t('map.legend')}</p>
          <p>
            <svg width="34" height="12" aria-hidden="true" className="map-legend-mark">
              <line x1="4" y1="6" x2="30" y2="6" stroke={trees.color} strokeWidth="1.5" strokeDasharray="3 3" />
              <circle cx="4" cy="6" r="3" fill={trees.color} />
            </svg>{' '}
            {t('map.legend_moved')}
          </p>
          {enabled.has('irrigation') && (
            <p>
              <svg width="16" height="16" aria-hidden="true" className="map-legend-mark">
                <circle cx="8" cy="8" r="6" fill={`${irrigation.color}40`} stroke={irrigation.color} strokeWidth="2" />
              </svg>{' '}
              {t('map.legend_irrigation')}
            </p>
          )}
        </div>
      </div>
    </figure>
  );
}
