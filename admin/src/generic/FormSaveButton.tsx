import { useRef, useState } from 'react';
import { Button as MuiButton, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { SaveButton, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import type { EntityMeta } from '../meta/types';

const noFile = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length);

/**
 * A form's "Save": where the document expects a file (a field marked `expected`) and none is
 * attached, it first asks the spec's "file not attached — continue?"; continuing saves, cancelling
 * goes back to the form.
 */
export function FormSaveButton({ entity }: { entity: EntityMeta }) {
  const translate = useTranslate();
  const { getValues } = useFormContext();
  const [missing, setMissing] = useState<string[]>([]);
  const button = useRef<HTMLButtonElement>(null);
  const passed = useRef(false);
  const expected = entity.fields.filter((f) => f.expected && !f.readOnly);

  const check = (e: React.MouseEvent<HTMLButtonElement>) => {
    if (passed.current) {
      passed.current = false;
      return;
    }
    const empty = expected.filter((f) => noFile(getValues(f.name)));
    if (!empty.length) return;
    e.preventDefault();
    setMissing(empty.map((f) => translate(f.label)));
  };
  const proceed = () => {
    setMissing([]);
    passed.current = true;
    button.current?.click();
  };

  return (
    <>
      <SaveButton data-testid="save-button" ref={button} onClick={expected.length ? check : undefined} />
      <Dialog open={missing.length > 0} onClose={() => setMissing([])} data-testid="file-missing-dialog">
        <DialogTitle>{translate('admin.file.missing_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText data-testid="file-missing-question">
            {translate('admin.file.missing_continue', { fields: missing.join(', ') })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setMissing([])} data-testid="file-missing-cancel">
            {translate('ra.action.cancel')}
          </MuiButton>
          <MuiButton variant="contained" onClick={proceed} data-testid="file-missing-continue">
            {translate('admin.file.continue')}
          </MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}
