import { Box, CircularProgress } from '@mui/material';
import { useQrSvg } from './useQrSvg';

/**
 * A QR code of `url` as inline SVG (sharp at any print size), `size` millimetres wide; the URL it
 * encodes is in `data-url` for whoever checks it.
 */
export function QrCode({ url, size = 32, label }: { url: string; size?: number; label: string }) {
  const { svg } = useQrSvg(url);
  return (
    <Box
      role="img"
      aria-label={label}
      data-testid="qr-code"
      data-url={url}
      data-ready={svg ? 'true' : undefined}
      sx={{
        width: `${size}mm`,
        height: `${size}mm`,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        '& svg': { width: '100%', height: '100%', display: 'block' },
      }}
      // the qrcode package's own markup: a path of the modules, no scripts
      dangerouslySetInnerHTML={svg ? { __html: svg } : undefined}
    >
      {svg ? undefined : <CircularProgress size={20} />}
    </Box>
  );
}
