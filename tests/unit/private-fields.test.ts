// Issue 35 (docs/decisions/038-private-fields.md): a listing's private fields live in `listing_private`, and one file
// of the code may name that table, src/modules/listings/store/private.ts, whose every function takes the caller and
// joins their manage scope. This holds it: any other file of the server, the islands or the scripts naming the table
// fails here, and no trigger (search index, change feed, kept counts) reads it.
import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { readFileSync } from 'node:fs'

const ROOT = `${import.meta.dir}/../..`
const ONLY = 'src/modules/listings/store/private.ts'

test('only the private store names listing_private in the code', () => {
  const naming: string[] = []
  for (const folder of ['src', 'islands', 'scripts'])
    for (const file of new Glob(`${folder}/**/*.{ts,tsx,js,sql}`).scanSync({ cwd: ROOT }))
      if (/listing_private/i.test(readFileSync(`${ROOT}/${file}`, 'utf8'))) naming.push(file)
  // The architecture rules name the table's owner; that is not a read of it.
  expect(naming.filter((f) => f !== 'scripts/architecture/rules.ts')).toEqual([ONLY])
})

test('no derived data (search indexes, change feed, kept counts) reads the private fields', () => {
  for (const file of ['db/sqlite/derived.sql', 'db/sqlite/search.sql', 'db/sqlite/feed.sql', 'db/pg/derived.sql', 'db/pg/search.sql', 'db/pg/feed.sql'])
    expect(readFileSync(`${ROOT}/${file}`, 'utf8'), file).not.toMatch(/listing_private|owner_phone|bottom_price/)
})

test('every function of the private store takes the caller (a Viewer) and reads through their scope', () => {
  const text = readFileSync(`${ROOT}/${ONLY}`, 'utf8')
  const exported = [...text.matchAll(/export async function (\w+)\(([^)]*)\)/g)]
  expect(exported.length).toBeGreaterThan(0)
  for (const [, name, params] of exported) expect(params, name).toMatch(/viewer: Viewer/)
})
