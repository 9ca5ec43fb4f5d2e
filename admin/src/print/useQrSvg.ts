import { useEffect, useState } from 'react';

/**
 * The SVG markup of a QR code of `text` (error correction M), drawn by the `qrcode` package,
 * which is fetched with the first code asked for (its own chunk). Undefined until drawn, or
 * without text.
 */
export function useQrSvg(text: string | undefined): { svg?: string; error?: unknown } {
  const [state, setState] = useState<{ svg?: string; error?: unknown }>({});
  useEffect(() => {
    if (!text) {
      setState({});
      return undefined;
    }
    let live = true;
    import('qrcode')
      .then((m) =>
        (m.default ?? m).toString(text, {
          type: 'svg',
          margin: 0,
          errorCorrectionLevel: 'M',
          color: { dark: '#000000', light: '#ffffff' },
        }),
      )
      .then((svg) => {
        if (live) setState({ svg });
      })
      .catch((error: unknown) => {
        if (live) setState({ error });
      });
    return () => {
      live = false;
    };
  }, [text]);
  return state;
}
