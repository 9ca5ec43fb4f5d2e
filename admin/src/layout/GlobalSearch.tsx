import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Box, Dialog, DialogContent, DialogTitle, IconButton, InputAdornment, TextField, Tooltip, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { requestJson } from '../api/http';
import { useMeta } from '../meta/store';
import type { MetaModel } from '../meta/model';

/** GET /api/search (api/modules/search/search.ts): a few hits of each entity the user may read. */
interface Hit {
  id: number;
  title: string;
  detail: string;
}
interface Group {
  entity: string;
  caption: string;
  hits: Hit[];
}
interface Answer {
  q: string;
  groups: Group[];
}

/** The server finds nothing for fewer characters (MIN_TERM); the dialog waits this long after a key before asking. */
const MIN_TERM = 2;
const DEBOUNCE_MS = 250;

/** Whether a key press is typing into something: "/" there is a character, not the search's key. */
function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
}

/** Where a hit opens: its entity's row page (a reference book's form), as the list's row opener goes. */
export function hitPath(model: MetaModel, entity: string, id: number): string | undefined {
  const resource = model.resourceOf(entity);
  const e = model.byName.get(entity);
  if (!resource || !e) return undefined;
  return e.kind === 'reference' && e.can.update ? model.editPath(resource, id) : model.showPath(resource, id);
}

/**
 * The back-office's global search (docs/global-search.md): Ctrl+K (⌘K) or "/" outside a text box
 * opens it, as does the bar's search button. A term of two characters or more lists the rows the
 * user may read whose INN, number or name holds it, grouped by entity; the arrows move through the
 * hits (a combobox: the focus stays in the box), Enter opens the chosen one, Escape closes.
 */
export function GlobalSearch() {
  const translate = useTranslate();
  const model = useMeta();
  const navigate = useNavigate();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [term, setTerm] = useState('');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [active, setActive] = useState(0);
  const seq = useRef(0);

  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const ctrlK = (ev.ctrlKey || ev.metaKey) && !ev.altKey && ev.key.toLowerCase() === 'k';
      const slash = ev.key === '/' && !ev.ctrlKey && !ev.metaKey && !ev.altKey && !typing(ev.target);
      if (!ctrlK && !slash) return;
      ev.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    const q = term.trim();
    if (q.length < MIN_TERM) {
      setAnswer(null);
      setLoading(false);
      return undefined;
    }
    const mine = ++seq.current;
    setLoading(true);
    const timer = setTimeout(() => {
      requestJson<Answer>(`/api/search?q=${encodeURIComponent(q)}`)
        .then((a) => {
          if (mine !== seq.current) return;
          setAnswer(a);
          setFailed(false);
          setActive(0);
        })
        .catch(() => {
          if (mine === seq.current) setFailed(true);
        })
        .finally(() => {
          if (mine === seq.current) setLoading(false);
        });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [term]);

  const hits = (answer?.groups ?? []).flatMap((g) => g.hits.map((h) => ({ ...h, entity: g.entity })));
  const close = useCallback(() => {
    setOpen(false);
    setTerm('');
    setAnswer(null);
  }, []);
  const go = (i: number) => {
    const h = hits[i];
    const to = h && hitPath(model, h.entity, h.id);
    if (!to) return;
    close();
    navigate(to);
  };
  const onKeyDown = (ev: React.KeyboardEvent) => {
    if (!hits.length) return;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      const step = ev.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + hits.length) % hits.length);
    } else if (ev.key === 'Enter') {
      ev.preventDefault();
      go(active);
    }
  };

  const listId = `${id}-hits`;
  const optionId = (i: number) => `${id}-hit-${i}`;
  const q = term.trim();
  let status = '';
  if (failed) status = translate('admin.search.failed');
  else if (q.length < MIN_TERM) status = translate('admin.search.hint');
  else if (!loading && answer && !hits.length) status = translate('admin.search.nothing', { q });
  let n = -1;
  return (
    <>
      <Tooltip title={translate('admin.search.open')}>
        <IconButton
          color="inherit"
          aria-label={translate('admin.search.open')}
          onClick={() => setOpen(true)}
          data-testid="global-search-button"
        >
          <SearchIcon />
        </IconButton>
      </Tooltip>
      <Dialog
        open={open}
        onClose={close}
        fullWidth
        maxWidth="sm"
        aria-labelledby={`${id}-title`}
        sx={{ '& .MuiDialog-container': { alignItems: 'flex-start' } }}
        data-testid="global-search"
      >
        <DialogTitle id={`${id}-title`} sx={{ pb: 1 }}>
          {translate('admin.search.title')}
        </DialogTitle>
        <DialogContent sx={{ pt: 0 }}>
          <TextField
            autoFocus
            fullWidth
            value={term}
            onChange={(ev) => setTerm(ev.target.value)}
            onKeyDown={onKeyDown}
            label={translate('admin.search.label')}
            helperText={translate('admin.search.keys')}
            slotProps={{
              htmlInput: {
                role: 'combobox',
                'aria-expanded': hits.length > 0,
                'aria-controls': listId,
                'aria-autocomplete': 'list',
                'aria-activedescendant': hits.length ? optionId(active) : undefined,
                maxLength: 100,
                'data-testid': 'global-search-input',
              },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            sx={{ mt: 1 }}
          />
          <Typography role="status" variant="body2" color="text.secondary" sx={{ mt: 1, minHeight: '1.5em' }}>
            {loading ? translate('admin.search.searching') : status}
          </Typography>
          <Box id={listId} role="listbox" aria-label={translate('admin.search.results')} sx={{ mt: 1 }}>
            {(answer?.groups ?? []).map((g) => (
              <Box key={g.entity} role="group" aria-labelledby={`${id}-${g.entity}`} sx={{ mb: 1.5 }}>
                <Typography id={`${id}-${g.entity}`} variant="overline" component="div" sx={{ color: 'text.secondary', lineHeight: 2 }}>
                  {g.caption}
                </Typography>
                {g.hits.map((h) => {
                  n += 1;
                  const i = n;
                  const selected = i === active;
                  return (
                    <Box
                      key={h.id}
                      id={optionId(i)}
                      role="option"
                      aria-selected={selected}
                      onClick={() => go(i)}
                      onMouseMove={() => setActive(i)}
                      data-testid="global-search-hit"
                      sx={{
                        px: 1.5,
                        py: 0.75,
                        borderRadius: 1,
                        cursor: 'pointer',
                        bgcolor: selected ? 'action.selected' : undefined,
                        outline: selected ? '2px solid' : undefined,
                        outlineColor: 'primary.main',
                      }}
                    >
                      <Typography variant="body1" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                        {h.title}
                      </Typography>
                      {h.detail && (
                        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                          {h.detail}
                        </Typography>
                      )}
                    </Box>
                  );
                })}
              </Box>
            ))}
          </Box>
        </DialogContent>
      </Dialog>
    </>
  );
}
