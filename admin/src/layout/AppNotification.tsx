import { useCallback, useEffect, useState } from 'react';
import { Alert, AlertTitle, Button, Snackbar } from '@mui/material';
import { useNotificationContext, useTakeUndoableMutation, useTranslate, type NotificationPayload } from 'react-admin';
import { describeError } from '../api/http';
import { i18n } from '../i18n';

/** Spec §9: notifications stay 2500 ms at the top of the screen. */
export const NOTIFICATION_MS = 2500;

/**
 * react-admin's notifications as the spec shows them (§8): an error is titled with the API's
 * message and code, "System error (-201)", with its description below; anything else is titled
 * "Info" in the language shown. Messages that are caption keys are translated; texts the API
 * already translated are shown as they are. An undoable change (a delete, docs/decisions/0065)
 * offers "Undo" while its notice shows; the change is sent when the notice goes.
 */
export function AppNotification() {
  const { notifications, takeNotification } = useNotificationContext();
  const takeMutation = useTakeUndoableMutation();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState<NotificationPayload | undefined>();

  useEffect(() => {
    if (notifications.length && !current) {
      const n = takeNotification();
      if (n) {
        setCurrent(n);
        setOpen(true);
      }
    }
  }, [notifications, current, takeNotification]);

  const undoable = !!current?.notificationOptions?.undoable;
  const onExited = useCallback(() => {
    // an undoable change (a delete) is sent when its notice goes, unless "Undo" took it back
    if (undoable) takeMutation()?.({ isUndo: false });
    setCurrent(undefined);
  }, [undoable, takeMutation]);
  const undo = useCallback(() => {
    takeMutation()?.({ isUndo: true });
    setOpen(false);
  }, [takeMutation]);

  // leaving the page while a change waits: the browser asks first (the change would be lost)
  useEffect(() => {
    if (!undoable) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [undoable]);

  if (!current) return null;
  const { message, type = 'info', notificationOptions } = current;
  const args = { ...(notificationOptions?.messageArgs ?? {}) } as Record<string, unknown>;
  const known = (s: string) => i18n.exists(s, { count: args.smart_count as number | undefined });
  // a caption key, else react-admin's default text, else a text the API has already translated
  const tr = (s: string) => (known(s) ? translate(s, args) : typeof args._ === 'string' ? args._ : s);
  const text = typeof message === 'string' ? tr(message) : message;
  const isError = type === 'error';
  const description = typeof message === 'string' ? describeError(message) : undefined;
  const body = isError ? (description ? (known(description) ? translate(description) : description) : null) : text;
  const title = isError ? text : translate(type === 'warning' ? 'admin.notify.warning' : 'admin.notify.info');
  const severity = type === 'error' ? 'error' : type === 'warning' ? 'warning' : type === 'success' ? 'success' : 'info';

  return (
    <Snackbar
      open={open}
      autoHideDuration={
        notificationOptions?.autoHideDuration === undefined ? NOTIFICATION_MS : (notificationOptions.autoHideDuration ?? undefined)
      }
      onClose={(_e, reason) => {
        if (reason !== 'clickaway') setOpen(false);
      }}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      slotProps={{ transition: { onExited } }}
    >
      <Alert
        severity={severity}
        variant="filled"
        onClose={undoable ? undefined : () => setOpen(false)}
        action={
          undoable ? (
            <Button color="inherit" size="small" variant="outlined" onClick={undo} data-testid="notification-undo">
              {translate('ra.action.undo')}
            </Button>
          ) : undefined
        }
        sx={{ minWidth: 320, maxWidth: 640 }}
        data-testid="notification"
        data-type={type}
      >
        <AlertTitle sx={{ mb: body ? 0.5 : 0 }}>{title}</AlertTitle>
        {body}
      </Alert>
    </Snackbar>
  );
}
