import { useId, useState } from 'react';
import { Alert, Box, Button, Card, CardActionArea, CardContent, Grid, Skeleton, Typography } from '@mui/material';
import { Title, useGetIdentity, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useMeta } from '../meta/store';
import type { MetaModel } from '../meta/model';
import { useFetch } from '../api/useFetch';
import { formatDate, formatInteger, formatMoney } from '../generic/format';
import { useLang } from '../generic/useLang';
import { DEFAULT_SECTION_ICON, iconFor } from '../layout/icons';

/** GET /api/dashboard (api/modules/dashboard/dashboard.ts): the caller's queues and figures, each with its list's filter. */
interface Queue {
  key: string;
  entity: string;
  label: string;
  states: string[];
  filter: Record<string, unknown>;
  count: number;
  exact: boolean;
}
interface Figure {
  key: string;
  entity: string;
  kind: 'money' | 'integer';
  period: 'month' | 'year';
  from: string;
  to: string;
  value: string;
  count: number;
  filter: Record<string, unknown>;
}
interface DashboardAnswer {
  today: string;
  queues: Queue[];
  figures: Figure[];
}

/** The figures' captions and units (admin/src/i18n: `admin.dashboard.<key>`, `…_unit`). */
const FIGURE_CAPTIONS: Record<string, string> = {
  'payments-month': 'payments_month',
  'trees-year': 'trees_year',
};

/**
 * The list of an entity with a filter, as react-admin reads it from the URL: the filter and the
 * inputs it shows (a range's two dates appear, not only apply). The entity's list route is the one
 * the user may open, without a preset filter where there is one (MetaModel.resourceOf).
 */
export function listLink(model: MetaModel, entity: string, filter: Record<string, unknown>): string | undefined {
  const resource = model.resourceOf(entity);
  if (!resource) return undefined;
  const shown = Object.fromEntries(Object.keys(filter).map((k) => [k, true]));
  const q = new URLSearchParams({ filter: JSON.stringify(filter), displayedFilters: JSON.stringify(shown) });
  return `/${resource}?${q.toString()}`;
}

/**
 * One count of the user's queue: the whole card is the link, named by what it shows — the count and
 * its caption — so that the name a screen reader or voice control uses is the one seen.
 */
function QueueCard({ q, to }: { q: Queue; to: string | undefined }) {
  const translate = useTranslate();
  const caption = translate(q.label);
  const count = formatInteger(q.count);
  const body = (
    // a phone's cards are rows (the count beside its caption), wider screens' tiles
    <CardContent
      sx={{
        display: 'flex',
        flexDirection: { xs: 'row', sm: 'column' },
        alignItems: { xs: 'center', sm: 'flex-start' },
        gap: { xs: 2, sm: 0.5 },
      }}
    >
      <Typography
        variant="h4"
        component="div"
        sx={{ fontWeight: 600, lineHeight: 1.1, minWidth: { xs: 56, sm: 0 } }}
        data-testid="dashboard-queue-count"
      >
        {count}
      </Typography>
      <Typography variant="body2">{caption}</Typography>
    </CardContent>
  );
  return (
    <Card
      variant="outlined"
      sx={{ height: '100%', borderLeft: 4, borderLeftColor: q.count > 0 ? 'primary.main' : 'divider', opacity: q.count > 0 ? 1 : 0.75 }}
      data-testid={`dashboard-queue-${q.key}`}
    >
      {to ? (
        <CardActionArea component={Link} to={to} sx={{ height: '100%', alignItems: 'flex-start' }}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

/** A figure of the user's scope: the whole card is the link, named by what it shows. */
function FigureCard({ f, to }: { f: Figure; to: string | undefined }) {
  const translate = useTranslate();
  const lang = useLang();
  const name = FIGURE_CAPTIONS[f.key] ?? f.key;
  const caption = translate(`admin.dashboard.${name}`);
  const value = f.kind === 'money' ? formatMoney(f.value, lang) : formatInteger(f.value, lang);
  const unit = translate(`admin.dashboard.${name}_unit`);
  const period = translate('admin.dashboard.period', { from: formatDate(f.from), to: formatDate(f.to) });
  const body = (
    <CardContent>
      <Typography variant="body2" color="text.secondary">
        {caption}
      </Typography>
      <Typography
        variant="h5"
        component="div"
        sx={{ fontWeight: 600, my: 0.5, overflowWrap: 'anywhere' }}
        data-testid="dashboard-figure-value"
      >
        {value}{' '}
        <Typography component="span" variant="body1" color="text.secondary">
          {unit}
        </Typography>
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {period} · {translate('admin.dashboard.rows', { count: formatInteger(f.count) })}
      </Typography>
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid={`dashboard-figure-${f.key}`}>
      {to ? (
        <CardActionArea component={Link} to={to} sx={{ height: '100%', alignItems: 'flex-start' }}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

/** A menu section: its first items, and the rest behind a button that shows them in place. */
function SectionCard({ section }: { section: MetaModel['meta']['menu'][number] }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const Icon = iconFor(section.icon, DEFAULT_SECTION_ICON);
  const shown = open ? section.children : section.children.slice(0, 5);
  const hidden = section.children.length - 5;
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
        <Icon color="primary" aria-hidden />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
            {translate(section.caption)}
          </Typography>
          <Box component="ul" id={listId} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {shown.map((c) => (
              // a line of 24 px: each link a target of that height (WCAG 2.2, 2.5.8)
              <Typography key={c.route} component="li" variant="body2" noWrap sx={{ lineHeight: '24px' }}>
                <Link
                  to={`${section.route}/${c.route.replace(/\/+$/, '')}`}
                  style={{ color: 'inherit', display: 'inline-block', minHeight: 24 }}
                >
                  {translate(c.caption)}
                </Link>
              </Typography>
            ))}
          </Box>
          {hidden > 0 && (
            <Button
              size="small"
              sx={{ mt: 0.5, px: 0.5, textTransform: 'none' }}
              aria-expanded={open}
              aria-controls={listId}
              onClick={() => setOpen((o) => !o)}
            >
              {open ? translate('admin.dashboard.less') : translate('admin.dashboard.more', { count: hidden })}
            </Button>
          )}
        </Box>
      </CardContent>
    </Card>
  );
}

/**
 * The start page: the user's own queue — the work waiting for a move they may make, counted in
 * their scope, each count a link to the list filtered to exactly those rows — a few figures of
 * their scope (payments this month, trees planted this year; Tashkent's calendar), and the menu's
 * sections (docs/dashboard.md).
 */
export function Dashboard() {
  const translate = useTranslate();
  const model = useMeta();
  const { identity } = useGetIdentity();
  const { data, error, loading } = useFetch<DashboardAnswer>('/api/dashboard');
  const sections = model.meta.menu;
  return (
    <Box sx={{ mt: 2 }} data-testid="page-dashboard">
      <Title title="admin.menu.dashboard" />
      <Card sx={{ mb: 2, background: 'linear-gradient(120deg, #e8f5e9 0%, #ffffff 70%)' }}>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom data-testid="dashboard-welcome" sx={{ overflowWrap: 'anywhere' }}>
            {translate('admin.dashboard.welcome', { name: identity?.fullName ?? '' })}
          </Typography>
          <Typography color="text.secondary">
            {sections.length ? translate('admin.dashboard.intro') : translate('admin.dashboard.no_sections')}
          </Typography>
        </CardContent>
      </Card>

      <Box component="section" aria-labelledby="dashboard-queue-title" sx={{ mb: 3 }} data-testid="dashboard-queue">
        <Typography id="dashboard-queue-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate('admin.dashboard.queue_title')}
        </Typography>
        {error ? (
          <Alert severity="warning">{translate('admin.dashboard.load_error')}</Alert>
        ) : loading || !data ? (
          <Grid container spacing={2}>
            {[0, 1, 2].map((i) => (
              <Grid key={i} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
                <Skeleton variant="rounded" height={96} />
              </Grid>
            ))}
          </Grid>
        ) : data.queues.length === 0 ? (
          <Typography color="text.secondary" data-testid="dashboard-queue-empty">
            {translate('admin.dashboard.queue_empty')}
          </Typography>
        ) : (
          <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {data.queues.map((q) => (
              <Grid key={q.key} size={{ xs: 12, sm: 6, md: 4, lg: 3 }} component="li">
                <QueueCard q={q} to={listLink(model, q.entity, q.filter)} />
              </Grid>
            ))}
          </Grid>
        )}
      </Box>

      {data && data.figures.length > 0 && (
        <Box component="section" aria-labelledby="dashboard-figures-title" sx={{ mb: 3 }} data-testid="dashboard-figures">
          <Typography id="dashboard-figures-title" variant="h6" component="h2">
            {translate('admin.dashboard.figures_title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('admin.dashboard.figures_scope')}
          </Typography>
          <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {data.figures.map((f) => (
              <Grid key={f.key} size={{ xs: 12, sm: 6, md: 4 }} component="li">
                <FigureCard f={f} to={listLink(model, f.entity, f.filter)} />
              </Grid>
            ))}
          </Grid>
        </Box>
      )}

      {sections.length > 0 && (
        <Box component="section" aria-labelledby="dashboard-sections-title">
          <Typography id="dashboard-sections-title" variant="h6" component="h2" sx={{ mb: 1 }}>
            {translate('admin.dashboard.sections_title')}
          </Typography>
          <Grid container spacing={2}>
            {sections.map((s) => (
              <Grid key={s.route} size={{ xs: 12, sm: 6, md: 4 }}>
                <SectionCard section={s} />
              </Grid>
            ))}
          </Grid>
        </Box>
      )}
    </Box>
  );
}
