/**
 * The QR code of a TOTP enrolment URI, as an SVG image. The `qrcode` package encodes the symbol
 * (error correction level M, smallest version, best mask); this file only draws its modules, so
 * that the SVG has no `#` (supabase-js puts `qr_code` into a `data:image/svg+xml;utf-8,` URL
 * unescaped, where `#` would end the image) and stays one small path.
 */
import QRCode from 'qrcode';

/** The module matrix of `text` (true = dark), indexed [row][column]. */
export function qrMatrix(text: string): boolean[][] {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, y) =>
    Array.from({ length: modules.size }, (_, x) => modules.get(y, x) === 1),
  );
}

/** An SVG image of the QR code (4-module quiet zone; no `#` so it fits a data: URL as is). */
export function qrSvg(text: string): string {
  const modules = qrMatrix(text);
  const n = modules.length + 8;
  let d = '';
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x + 4} ${y + 4}h1v1h-1z`;
    }),
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" shape-rendering="crispEdges"><path fill="white" d="M0 0h${n}v${n}H0z"/><path fill="black" d="${d}"/></svg>`;
}
