import { useEffect, useState } from 'react';

/**
 * A QR code of a text (an address), drawn as SVG by the `qrcode` package, loaded only when a page
 * shows one (the passport): it stays out of the landing page's JavaScript.
 */
export function QrCode({ text, label, size = 112, testId }: { text: string; label: string; size?: number; testId?: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((m) =>
        (m.default ?? m).toString(text, {
          type: 'svg',
          margin: 1,
          errorCorrectionLevel: 'M',
          color: { dark: '#000000', light: '#ffffff' },
        }),
      )
      .then((s) => {
        if (live) setSvg(s);
      })
      .catch((e: unknown) => console.warn('QR code:', e));
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <div
      className="qr"
      role="img"
      aria-label={label}
      data-testid={testId}
      data-ready={svg ? 'true' : undefined}
      style={{ width: size, height: size }}
      dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
    />
  );
}
