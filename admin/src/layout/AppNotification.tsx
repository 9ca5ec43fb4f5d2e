import { useCallback, useEffect, useState } from 'react';
import { Alert, AlertTitle, Snackbar } from '@mui/material';
import { useNotificationContext, useTakeUndoableMutation, useTranslate, type NotificationPayload } from 'react-admin';
import { describeError } from '../api/http';
import { i18n } from '../i18n';

/** Spec §9: notifications stay 2500 ms at the top of the screen. */
export const NOTIFICATION_MS = 2500;

/**
 * react-admin's notifications as the spec shows them (§8): an error is titled with the API's
 * message and code, "System error (-201)", with its description below; anything else is titled
 * "Info" in the language shown. Messages that are caption keys are translated; texts the API
 * already translated are shown as they are.
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

  const onExited = useCallback(() => {
    if (current?.notificationOptions?.undoable) takeMutation()?.({ isUndo: false });
    setCurrent(undefined);
  }, [current, takeMutation]);

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
        onClose={() => setOpen(false)}
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
