// A phone's touch targets (the quality bar: every control at least 44 × 44 px: Apple's 44 pt, Material's 48 dp, WCAG
// 2.5.5). One measure for every browser test: `smallControls` for a part of a screen, `measureTargets` for a whole
// screen (tests/e2e/tap-targets.test.ts, issue 32). Sizes are the laid-out ones (offsetWidth/offsetHeight), taken once
// the page's finite animations have ended (within 10 s): a dialog opening scales from 98 %, and a 44 px button
// measured mid-way by its bounding box reads 43.3 px.
import type { Page } from 'playwright-core'

/** The minimum, in CSS pixels, of a control's width and of its height. */
export const MIN_TARGET = 44

/** What was measured: how many controls, those too small (one line each), the inline links left out by name. */
export type Targets = { measured: number; small: string[]; inline: string[] }

/** What is tapped: links, buttons, fields, disclosure summaries, and elements that say they are controls. */
const CONTROLS = [
  'a[href]',
  'button',
  'input:not([type=hidden])',
  'select',
  'textarea',
  'summary',
  '[role=button]',
  '[role=link]',
  '[role=tab]',
  '[role=menuitem]',
  '[role=checkbox]',
  '[role=radio]',
  '[role=switch]',
  '[role=option]',
  '[tabindex]:not([tabindex="-1"])',
].join(',')

/**
 * Every visible control under `scope` (every element it selects; the whole page unless given) smaller than 44 × 44
 * px, one line each: `<what> "<name>" <w>×<h>`. A checkbox or radio (or a file input hidden behind a drop zone) is
 * tapped through its label (wrapping it or `for` it): the label is measured instead. A field inside a daisyUI `.input`
 * box (the symbol and code around the budget) is tapped through the box. Left out: what is not laid out or not visible (display none, a closed menu, visibility
 * hidden, visually hidden text such as the skip link until it is focused), what is inert (the page behind a dialog),
 * and, per WCAG 2.5.8's inline exception, a link inside a sentence (its size is set by the line of text around it).
 */
export async function measureTargets(page: Page, scope = 'body'): Promise<Targets> {
  return page.evaluate(
    async ({ selector, scope, min }) => {
      // Polled, not awaited: a paused animation's `finished` never settles. A spinner's endless one is not waited for.
      const moving = () => document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
      for (const until = Date.now() + 10_000; moving() && Date.now() < until; ) await new Promise((r) => setTimeout(r, 50))
      const roots = [...document.querySelectorAll(scope)]
      if (roots.length === 0) return { measured: 0, small: [`no ${scope} on the page`], inline: [] }
      const inside = (el: Element) => roots.some((r) => r.contains(el))
      const inline: string[] = []
      const found = new Map<Element, string>()
      const name = (el: Element) =>
        (el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.getAttribute('title') || el.getAttribute('placeholder') || el.id || '').trim().replace(/\s+/g, ' ').slice(0, 40)
      const describe = (el: Element) => {
        const tag = el.tagName.toLowerCase()
        const type = el.getAttribute('type')
        const role = el.getAttribute('role')
        return `${tag}${type ? `[type=${type}]` : ''}${role ? `[role=${role}]` : ''}`
      }
      const visible = (el: Element) => {
        // Hidden by itself or an ancestor: display, visibility, opacity 0 (a closed daisyUI dropdown), a closed
        // <details>'s content (content-visibility: hidden). A card out of view (content-visibility: auto, not drawn
        // until scrolled near: DataTable) is still a target: measured, as getBoundingClientRect lays it out.
        if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false
        if (el.closest('[inert], [aria-hidden="true"]')) return false
        const r = el.getBoundingClientRect()
        // Visually hidden (sr-only: 1 px, clipped): not a target until it shows, as the skip link does on focus.
        if (r.width <= 1 || r.height <= 1) return false
        return el.getClientRects().length > 0
      }
      /**
       * WCAG 2.5.8's inline exception: a link laid out inline whose block holds other words than its own, a link in a
       * sentence ("… see the Terms"). Its height is the line's; making it 44 px would break the paragraph.
       */
      const inSentence = (el: Element) => {
        if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false
        const block = el.parentElement
        if (!block) return false
        const own = (el.textContent ?? '').trim()
        const all = (block.textContent ?? '').replace(/\s+/g, ' ').trim()
        return all.length > own.length + 3
      }
      /** The element actually tapped for a control. */
      const targetOf = (el: Element): Element => {
        // A checkbox or radio is tapped through its label; a file input too when it is hidden behind one (a drop zone).
        if (el instanceof HTMLInputElement && (['checkbox', 'radio'].includes(el.type) || (el.type === 'file' && !visible(el)))) {
          const label = el.closest('label') ?? (el.labels && el.labels[0])
          if (label) return label
        }
        if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) {
          const box = el.parentElement?.closest('.input, .select, label.input, label.select')
          if (box && inside(box)) return box
        }
        return el
      }
      for (const el of roots.flatMap((r) => [...r.querySelectorAll(selector)])) {
        const target = targetOf(el)
        if (found.has(target)) continue
        if (!visible(target) && !visible(el)) continue
        if (inSentence(el)) {
          inline.push(name(el))
          continue
        }
        const h = target as HTMLElement
        const w = h.offsetWidth ?? target.getBoundingClientRect().width
        const ht = h.offsetHeight ?? target.getBoundingClientRect().height
        if (w >= min && ht >= min) {
          found.set(target, '')
          continue
        }
        found.set(target, `${describe(el)} "${name(target)}" ${Math.round(w)}×${Math.round(ht)}`)
      }
      return { measured: found.size, small: [...found.values()].filter(Boolean), inline }
    },
    { selector: CONTROLS, scope, min: MIN_TARGET },
  )
}

/** The visible controls inside `scope` (a CSS selector) smaller than 44 × 44 px, one line each ([] when all are big). */
export const smallControls = async (page: Page, scope = 'body'): Promise<string[]> => (await measureTargets(page, scope)).small
