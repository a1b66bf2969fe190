import { renderSVG } from 'uqr'

/**
 * The QR code of a key's URI as an SVG (uqr: no dependencies, renders on the server, so the page needs no script for
 * it). Medium error correction: a phone camera reads it off a dim or scratched screen. Imported on the first setup, not
 * at start (docs/decisions/004-lazy-start.md).
 */
export const qrSvg = (uri: string) => renderSVG(uri, { ecc: 'M', border: 2, pixelSize: 6, whiteColor: '#ffffff', blackColor: '#000000' })
