import { useEffect, useState } from 'react';
import { fileBlob } from '../api/files';

/**
 * An object URL of a stored image (fetched with the token), revoked when no longer shown; `done`
 * once it has loaded or failed, so a page can wait for it before printing.
 */
export function useImageUrl(id: number | undefined): { url?: string; done: boolean } {
  const [state, setState] = useState<{ url?: string; done: boolean }>({ done: !id });
  useEffect(() => {
    if (!id) {
      setState({ done: true });
      return undefined;
    }
    let live = true;
    let made: string | undefined;
    setState({ done: false });
    fileBlob(id)
      .then(({ blob }) => {
        if (!live) return;
        made = URL.createObjectURL(blob);
        setState({ url: made, done: true });
      })
      .catch(() => {
        if (live) setState({ done: true });
      });
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [id]);
  return state;
}
