import { sql } from 'drizzle-orm'

/**
 * A contact as duplicate control compares it (issue 17): lower case, without the spaces and punctuation people type
 * inside a phone number or around it (`98765 43210`, `98765-43210`, `(022) 2345.6789`, `+91…`). Written once, as SQL:
 * a generated column, indexed, so two listings with the same contact are found through the index. A country code typed
 * on one and not the other still differs: `+91 98765 43210` is `919876543210`, not `9876543210`.
 * `contactKey` below is the same rule in JavaScript, for tests.
 */
const STRIPPED = [' ', '-', '.', '(', ')', '+', '/']
export const CONTACT_KEY_SQL = sql.raw(`lower(${STRIPPED.reduce((e, ch) => `replace(${e}, '${ch}', '')`, 'contact_value')})`)

export const contactKey = (value: string): string => value.replace(/[ \-.()+/]/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase())
