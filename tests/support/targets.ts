// A phone's touch targets (the quality bar: every control at least 44 × 44 px). One measure for every browser test.
import type { Page } from 'playwright-core'

export const MIN_TARGET = 44

/**
 * The visible controls inside `scope` (a CSS selector) smaller than 44 × 44 px, as `name width×height`. A checkbox or
 * radio is touched through its label, which is measured instead. Measured once the page's finite animations have
 * ended (within 10 s): a dialog opening scales from 98 %, and a 44 px button measured mid-way reads 43.3 px.
 */
export async function smallControls(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate(
    async ({ scope, min }) => {
      // Polled, not awaited: a paused animation's `finished` never settles. A spinner's endless one is not waited for.
      const moving = () => document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
      for (const until = Date.now() + 10_000; moving() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50))
      const selector = ['button', 'a.btn', 'label.btn', 'input', 'select', 'textarea'].map((c) => `${scope} ${c}`).join(', ')
      const out: string[] = []
      for (const el of document.querySelectorAll<HTMLElement>(selector)) {
        if (el instanceof HTMLInputElement && el.type === 'hidden') continue
        const boxed = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') ? (el.closest('label') ?? el) : el
        const r = boxed.getBoundingClientRect()
        if (r.width === 0 || r.height === 0 || getComputedStyle(boxed).visibility === 'hidden') continue
        if (r.width < min || r.height < min) {
          const name = el.textContent?.trim() || el.getAttribute('aria-label') || el.getAttribute('name') || el.id || el.tagName.toLowerCase()
          out.push(`${name} ${Math.round(r.width * 10) / 10}×${Math.round(r.height * 10) / 10}`)
        }
      }
      return out
    },
    { scope, min: MIN_TARGET },
  )
}
