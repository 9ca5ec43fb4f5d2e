import { useState } from 'react';
import { Box, CircularProgress, IconButton, InputAdornment, TextField, Tooltip } from '@mui/material';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import { useNotify, useResourceContext, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { requestJson } from '../api/http';
import { errorMessage } from '../api/useFetch';
import { useMeta } from '../meta/store';
import type { EntityMeta } from '../meta/types';

/**
 * "Find a subject by INN" beside the subjects list: nine digits, then
 * `GET …/subject/by-inn/:inn` opens the subject's page; "no such INN in the system" is the
 * server's own message, in the language shown. Searching with the box empty says the spec's
 * "fill the reference form before adding or searching a subject"; a number of another length,
 * that an INN has nine digits.
 */
export function InnSearch({ entity }: { entity: EntityMeta }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const model = useMeta();
  const resource = useResourceContext();
  const [inn, setInn] = useState('');
  const [busy, setBusy] = useState(false);
  // what is wrong with the box: empty, or not nine digits
  const [invalid, setInvalid] = useState<string | false>(false);

  const search = async () => {
    const digits = inn.replace(/\s/g, '');
    if (!digits) {
      setInvalid('admin.subject.fill_first');
      return;
    }
    if (!/^\d{9}$/.test(digits)) {
      setInvalid('validation.inn');
      return;
    }
    setInvalid(false);
    setBusy(true);
    try {
      const row = await requestJson<{ id: number }>(`${entity.path}/by-inn/${digits}`);
      const target = resource && model.byResource.has(resource) ? resource : model.resourceOf(entity.name)!;
      navigate(model.showPath(target, row.id));
    } catch (err) {
      const m = errorMessage(err);
      notify(m, { type: 'error', messageArgs: { _: m } });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void search();
      }}
      sx={{ display: 'flex', alignItems: 'center', mr: 1 }}
    >
      <TextField
        size="small"
        value={inn}
        onChange={(e) => {
          setInn(e.target.value.replace(/[^\d\s]/g, '').slice(0, 11));
          setInvalid(false);
        }}
        placeholder={translate('admin.subject.inn_search')}
        error={!!invalid}
        helperText={invalid ? translate(invalid) : undefined}
        sx={{ width: 230 }}
        slotProps={{
          htmlInput: { inputMode: 'numeric', 'data-testid': 'inn-search', 'aria-label': translate('admin.subject.inn_search') },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={translate('admin.subject.inn_search')}>
                  <span>
                    <IconButton
                      type="submit"
                      size="small"
                      disabled={busy}
                      data-testid="inn-search-button"
                      aria-label={translate('admin.subject.inn_search')}
                    >
                      {busy ? <CircularProgress size={16} /> : <PersonSearchIcon fontSize="small" />}
                    </IconButton>
                  </span>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
    </Box>
  );
}
