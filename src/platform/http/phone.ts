/**
 * Whether a request comes from a phone: Chromium browsers say so in `Sec-CH-UA-Mobile` (sent with every request),
 * others in the User-Agent ("Mobile", "iPhone"; a tablet is not a phone). Only a hint for what to render first (see
 * islands/shared/layout.ts): a wrong guess costs a wider page's bytes, or a table drawn once the page is live.
 */
export function phoneRequest(request: Request): boolean {
  const hint = request.headers.get('sec-ch-ua-mobile')
  if (hint !== null) return hint.trim() === '?1'
  return /\b(?:Mobile|iPhone|iPod)\b/.test(request.headers.get('user-agent') ?? '')
}
