// Whether the user is in the middle of a form (issue 33: a new version or a notification waits until none is). Apart
// from ./app-worker.ts, which the page loads once its islands are hydrated: the fields' values from before the user
// first touched them must be noted from the page's start (docs/decisions/049-phone-last-kilobytes.md).

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement
const FIELDS = 'form input, form textarea, form select'

/** A field's value as one string: checked state for boxes, the chosen options for a select. */
function valueOf(el: Field): string {
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return String(el.checked)
  if (el instanceof HTMLSelectElement) return [...el.options].map((o) => (o.selected ? '1' : '0')).join('')
  return el.value
}

/**
 * Each form field's value from before the user first touched it. `defaultValue` cannot tell: React keeps it (the
 * `value` attribute) equal to the value of every field it controls, so a changed React field looked untouched.
 */
const before = new WeakMap<Element, string>()
function noteBefore(event: Event) {
  const el = event.target
  if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) && el.matches(FIELDS) && !before.has(el))
    before.set(el, valueOf(el))
}
if (typeof document !== 'undefined')
  // Capturing, before any handler changes the value: focus comes first for typing, a pointer or key for a box or list.
  for (const type of ['focusin', 'pointerdown', 'keydown']) document.addEventListener(type, noteBefore, true)

/** Is the user in the middle of a form: a dialog open, or a field changed from what the page drew? */
export function midForm(doc: Document = document): boolean {
  if (doc.querySelector('dialog[open], .modal-open, [role="dialog"]')) return true
  for (const el of doc.querySelectorAll<Field>(FIELDS)) {
    if (el instanceof HTMLInputElement && el.type === 'hidden') continue
    const was = before.get(el)
    if (was !== undefined && was !== valueOf(el)) return true
    // A field no event reached (filled by a script, or not React's): its markup's value.
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.checked !== el.defaultChecked) return true
    } else if (el instanceof HTMLSelectElement) {
      if ([...el.options].some((o) => o.selected !== o.defaultSelected)) return true
    } else if (el.value !== el.defaultValue) return true
  }
  return false
}
