import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

// axe-core inside a page, and the page's width: the accessibility checks of the browser tests (tests/e2e/a11y.test.ts,
// tests/e2e/matches.test.ts). axe-core is injected, so the page's context must bypass the app's CSP
// (`browser.newContext({ bypassCSP: true })`), which forbids the injected script.

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core')

/** Waits until the page is still: islands hydrated, nothing loading, no transition or animation running. */
export async function settle(page: Page) {
  if (await page.locator('[data-island]').count()) await page.waitForSelector('html[data-islands="hydrated"]', { state: 'attached' })
  const restless = () => {
    const name = (el: Element | null | undefined) => (el ? el.tagName.toLowerCase() + [...el.classList].slice(0, 3).map((c) => `.${c}`).join('') : '?')
    const busy = [...document.querySelectorAll('.loading, [aria-busy="true"], .skeleton')].filter((el) => el.getClientRects().length > 0).map(name)
    const moving = document
      .getAnimations()
      // Finite animations on the document's clock (daisyUI's scroll-driven set-page-has-scroll never ends).
      .filter((a) => a.playState === 'running' && a.timeline === document.timeline && a.effect?.getComputedTiming().endTime !== Infinity)
      .map((a) => `${name((a.effect as KeyframeEffect | null)?.target)} ${(a as CSSTransition).transitionProperty ?? (a as CSSAnimation).animationName ?? ''}`)
    return [...busy, ...moving]
  }
  const still = await page.waitForFunction(`(${restless})().length === 0`, undefined, { timeout: 10_000 }).catch(() => null)
  if (!still) throw new Error(`the page did not settle: ${(await page.evaluate(restless)).join(', ')}`)
}

/**
 * While axe runs, layers that paint nothing under any text but stop axe from judging colours (it reports "needs review"
 * for them, which would hide real failures) are taken away:
 * - daisyUI's modal backdrop, a transparent click target laid over the whole dialog at z-index -1: axe takes every text
 *   in a dialog as overlapped by it;
 * - the noise layer of buttons and badges (background-image, sized 0 while the theme's --noise is 0): without it axe
 *   judges white on btn-primary, btn-error, badge-warning, ...;
 * - a select's arrow (two small gradients at its right end, beside the text);
 * - `content-visibility: auto` (a phone's cards out of view, DataTable's CARD_OFFSCREEN): as axe scrolls to judge a
 *   card, the cards around it are laid out for the first time and move, while axe still holds their places from
 *   before, and judges a text against what is now under its old place (dequelabs/axe-core#2768, open). A full run
 *   once judged an own card's grey text at 2.57:1 against #516784: the secondary colour (a hot tag's, the Co-broke
 *   button's) under the own listing's tint, where nothing behind that text has it. Every card is laid out before axe starts; what it then judges is what a broker
 *   sees once scrolled there.
 */
const AXE_PROBE_CSS = `
  .modal-backdrop { visibility: hidden !important }
  .btn, .badge, select { background-image: none !important }
  [class~="[content-visibility:auto]"] { content-visibility: visible !important }
`

type AxeViolation = { id: string; impact: string | null; nodes: { target: unknown[]; html: string; any: { data?: Record<string, unknown> }[] }[] }

/**
 * The check of one page state: axe-core over the page (or only `scope`, e.g. an open dialog) and the page's width.
 * Returns one line per problem; [] when the state passes.
 */
export async function problems(page: Page, state: string, scope?: string): Promise<string[]> {
  // A scoped state is waited for: a dialog loaded on its first opening (decision 040) is not there the moment its
  // button is clicked.
  if (scope) await page.locator(scope).first().waitFor()
  await settle(page)
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH })
  const violations = (await page.evaluate(
    async ({ scope, css }) => {
      const probe = Object.assign(document.createElement('style'), { textContent: css })
      document.head.append(probe)
      try {
        const { axe } = window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown[] }> } }
        return (await axe.run(scope ? { include: [[scope]] } : document, { resultTypes: ['violations'] })).violations
      } finally {
        probe.remove()
      }
    },
    { scope, css: AXE_PROBE_CSS },
  )) as AxeViolation[]
  const out: string[] = []
  for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
    for (const n of v.nodes) {
      const c = n.any[0]?.data
      const contrast = v.id === 'color-contrast' && c ? ` ${c.contrastRatio}:1 ${c.fgColor} on ${c.bgColor}` : ''
      out.push(`${state}: ${v.id} (${v.impact})${contrast} at ${n.target.join(' ')} — ${n.html.replace(/\s+/g, ' ').slice(0, 160)}`)
    }
  }
  const overflow = await page.evaluate(() => {
    const width = window.innerWidth
    if (document.documentElement.scrollWidth <= width) return null
    // The outermost elements that reach past the right edge outside any scrolling or clipping box: where it comes from.
    const past = (el: Element) => el.getBoundingClientRect().right > width + 0.5
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return true
      return false
    }
    const culprits = [...document.body.querySelectorAll('*')].filter((el) => past(el) && !(el.parentElement && el.parentElement !== document.body && past(el.parentElement)) && !clipped(el))
    const name = (el: Element) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '') + [...el.classList].slice(0, 4).map((c) => `.${c}`).join('')
    return `scrollWidth ${document.documentElement.scrollWidth} > innerWidth ${width}; reaching past the edge: ${culprits.slice(0, 5).map(name).join(', ')}`
  })
  if (overflow) out.push(`${state}: horizontal overflow, ${overflow}`)
  return out
}
