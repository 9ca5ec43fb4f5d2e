import { useMemo, useState } from 'react';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Button as MuiButton,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  InputAdornment,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import SearchIcon from '@mui/icons-material/Search';
import { Title, useGetOne, useNotify, useTranslate } from 'react-admin';
import { useLocation, useParams } from 'react-router-dom';
import { request } from '../api/http';
import { errorMessage, useFetch } from '../api/useFetch';
import { i18n } from '../i18n';
import { useMeta } from '../meta/store';
import { titleOf } from '../generic/titleOf';
import { useLang } from '../generic/useLang';
import { formatNumber } from '../generic/format';

interface Action {
  id: number;
  name: string;
  kind: string;
  state: number;
}
interface Category {
  id: string;
  name: string;
  actions: Action[];
}
interface Access {
  role_id: number;
  categories: Category[];
}

/** A change waiting for its confirmation. */
type Change =
  | { kind: 'action'; action: Action; state: 0 | 1 }
  | { kind: 'category'; category: Category; state: 0 | 1 }
  | { kind: 'all'; state: 0 | 1 };

/**
 * Access managing of a role (`#/managing/access-managing/:user_roles_id`, opened from the role's
 * page): every action of the catalogue by module with the role's state, a switch per action
 * (`update-access-status`), per module (`set-action` / `not-allow` with `category`) and for all
 * (`all: true`), each after a confirmation. Users of the role get the change on their next request;
 * their menu follows on their next page load.
 */
export function AccessManaging() {
  const { user_roles_id: roleParam } = useParams();
  const { pathname } = useLocation();
  const model = useMeta();
  const translate = useTranslate();
  const notify = useNotify();
  const lang = useLang();
  const route = model.routeFor(pathname);
  const roleId = Number(roleParam);
  const rolesResource = model.resourceOf('user-roles');
  const { data: role } = useGetOne(
    rolesResource ?? 'managing/user-roles',
    { id: roleId },
    { enabled: !!rolesResource && Number.isSafeInteger(roleId) },
  );
  const { data, error, loading, reload } = useFetch<Access>(Number.isSafeInteger(roleId) ? `/api/user-role-access/${roleId}` : null);
  const [local, setLocal] = useState<Access | null>(null);
  const [q, setQ] = useState('');
  const [pending, setPending] = useState<Change | null>(null);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const access = local && data && local.role_id === data.role_id ? local : data;

  const categories = useMemo(() => {
    const needle = q.trim().toLowerCase();
    return (access?.categories ?? [])
      .map((c) => ({
        ...c,
        shown: needle ? c.actions.filter((a) => a.name.toLowerCase().includes(needle) || String(a.id).includes(needle)) : c.actions,
      }))
      .filter((c) => c.shown.length > 0);
  }, [access, q]);

  const allActions = (access?.categories ?? []).flatMap((c) => c.actions);
  const allowed = allActions.filter((a) => a.state === 1).length;

  const apply = (change: Change) => {
    if (!access) return;
    const next: Access = {
      ...access,
      categories: access.categories.map((c) => ({
        ...c,
        actions: c.actions.map((a) => {
          if (change.kind === 'all') return { ...a, state: change.state };
          if (change.kind === 'category' && c.id === change.category.id) return { ...a, state: change.state };
          if (change.kind === 'action' && a.id === change.action.id) return { ...a, state: change.state };
          return a;
        }),
      })),
    };
    setLocal(next);
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'action') {
        await request('/api/user-role-access/update-access-status', {
          method: 'POST',
          body: { role_id: roleId, action_id: pending.action.id, state: pending.state },
        });
      } else {
        const body = pending.kind === 'all' ? { role_id: roleId, all: true } : { role_id: roleId, category: pending.category.id };
        await request(`/api/user-role-access/${pending.state ? 'set-action' : 'not-allow'}`, { method: 'POST', body });
      }
      apply(pending);
      notify('admin.access.saved', { type: 'info' });
      setPending(null);
    } catch (err) {
      const m = errorMessage(err);
      notify(m, { type: 'error', messageArgs: { _: m } });
      setLocal(null);
      reload();
    } finally {
      setBusy(false);
    }
  };

  const question = (c: Change): string => {
    const on = c.state === 1 ? 'on' : 'off';
    if (c.kind === 'action') return translate(`admin.access.confirm_action_${on}`, { name: c.action.name, id: c.action.id });
    if (c.kind === 'category')
      return translate(`admin.access.confirm_category_${on}`, { name: c.category.name, count: c.category.actions.length });
    return translate(`admin.access.confirm_all_${on}`, { count: formatNumber(allActions.length, 0) });
  };

  const kind = (k: string) => (i18n.exists(`operations.${k}`) ? translate(`operations.${k}`) : k);
  const roleName = role ? titleOf(model.byName.get('user-roles'), role, lang) : `#${roleParam}`;

  return (
    <Box sx={{ mt: 2 }} data-testid="page-screen-access-managing">
      <Title
        title={
          <>
            {translate(route?.caption ?? 'menu.access_managing_detail')} — {roleName}
          </>
        }
      />
      <Card sx={{ mb: 2 }}>
        <CardContent sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
          <Box sx={{ flex: '1 1 240px' }}>
            <Typography variant="h6" data-testid="access-role">
              {translate('admin.access.title', { role: roleName })}
            </Typography>
            {access && (
              <Typography variant="body2" color="text.secondary" data-testid="access-count">
                {translate('admin.access.allowed_count', { allowed: formatNumber(allowed, 0), total: formatNumber(allActions.length, 0) })}
              </Typography>
            )}
          </Box>
          <TextField
            size="small"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setOpen({});
            }}
            placeholder={translate('admin.access.search')}
            sx={{ width: 280 }}
            slotProps={{
              htmlInput: { 'data-testid': 'access-search', 'aria-label': translate('admin.access.search') },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <MuiButton
            variant="outlined"
            color="success"
            startIcon={<LockOpenIcon />}
            disabled={!access}
            onClick={() => setPending({ kind: 'all', state: 1 })}
            data-testid="access-allow-all"
          >
            {translate('admin.access.allow_all')}
          </MuiButton>
          <MuiButton
            variant="outlined"
            color="error"
            startIcon={<LockIcon />}
            disabled={!access}
            onClick={() => setPending({ kind: 'all', state: 0 })}
            data-testid="access-close-all"
          >
            {translate('admin.access.close_all')}
          </MuiButton>
        </CardContent>
      </Card>
      {loading && !access && (
        <Box sx={{ textAlign: 'center', py: 4 }}>
          <CircularProgress />
        </Box>
      )}
      {error && <Alert severity="error">{errorMessage(error)}</Alert>}
      {access && !categories.length && <Typography color="text.secondary">{translate('admin.empty.no_actions')}</Typography>}
      {categories.map((c) => {
        const on = c.actions.filter((a) => a.state === 1).length;
        const expanded = open[c.id] ?? !!q.trim();
        return (
          <Accordion
            key={c.id}
            expanded={expanded}
            onChange={(_e, v) => setOpen((o) => ({ ...o, [c.id]: v }))}
            disableGutters
            data-testid={`access-category-${c.id}`}
          >
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, width: '100%' }}>
                <Switch
                  checked={on === c.actions.length}
                  onClick={(e) => e.stopPropagation()}
                  onChange={(_e, v) => setPending({ kind: 'category', category: c, state: v ? 1 : 0 })}
                  slotProps={{ input: { 'aria-label': c.name, 'data-testid': `access-category-switch-${c.id}` } as never }}
                />
                <Typography sx={{ fontWeight: 600, flex: 1 }}>{c.name}</Typography>
                <Chip
                  size="small"
                  label={`${on} / ${c.actions.length}`}
                  color={on === c.actions.length ? 'success' : on ? 'warning' : 'default'}
                  variant="outlined"
                  sx={{ mr: 1 }}
                />
              </Box>
            </AccordionSummary>
            <AccordionDetails sx={{ pt: 0 }}>
              {expanded && (
                <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
                  {c.shown.map((a) => (
                    <Box
                      key={a.id}
                      sx={{ display: 'flex', alignItems: 'center', borderBottom: 1, borderColor: 'divider', py: 0.25, minWidth: 0 }}
                    >
                      <FormControlLabel
                        sx={{
                          flex: 1,
                          minWidth: 0,
                          ml: 0,
                          mr: 1,
                          '& .MuiFormControlLabel-label': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
                        }}
                        control={
                          <Switch
                            size="small"
                            checked={a.state === 1}
                            onChange={(_e, v) => setPending({ kind: 'action', action: a, state: v ? 1 : 0 })}
                            slotProps={{ input: { 'data-testid': `access-action-${a.id}` } as never }}
                          />
                        }
                        label={a.name}
                        title={a.name}
                      />
                      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
                        {kind(a.kind)} · {a.id}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              )}
            </AccordionDetails>
          </Accordion>
        );
      })}
      <Dialog open={!!pending} onClose={() => !busy && setPending(null)} data-testid="access-dialog">
        <DialogTitle>{translate('admin.access.confirm_title')}</DialogTitle>
        <DialogContent>
          <Typography>{pending ? question(pending) : ''}</Typography>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setPending(null)} disabled={busy}>
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton
            variant="contained"
            onClick={() => void confirm()}
            disabled={busy}
            data-testid="access-confirm"
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {translate('ra.action.confirm')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
