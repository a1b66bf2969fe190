import { describe, expect, test } from 'bun:test'
import { allOf, filterWhere, narrowWhere, visibleTo } from '../../src/modules/listings/store/where'

describe('listing clauses', () => {
  test('a combined clause keeps each part whole: a broker’s "or" never escapes into the rest', () => {
    const broker = visibleTo({ id: 7, role: 'BROKER', cityId: 1 })!
    const both = allOf({ sql: 'listings.id = ?', params: [3] }, broker)
    // The broker's clause holds an "or" (their own suspended listings; issue 35's visibility adds more): whole in brackets.
    expect(broker.sql).toContain(' or listings.owner_user_id = ?')
    expect(both.sql).toBe(`(listings.id = ?) and (${broker.sql})`)
    expect(both.params).toEqual([3, ...broker.params])
    expect(broker.params[0]).toBe(7)
  })

  test('no filter hides only expired listings; empty values are no filter; a city beats its state and country', () => {
    const shown = { sql: "(listings.status <> 'EXPIRED')", params: [] }
    expect(visibleTo({ id: 1, role: 'MASTER_ADMIN', cityId: null })).toBeNull()
    expect(filterWhere({})).toEqual(shown)
    expect(filterWhere({ property_type: '', status: undefined })).toEqual(shown)
    expect(narrowWhere({ property_type: '', status: undefined })).toEqual({ sql: 'true', params: [] })
    expect(filterWhere({ status: 'EXPIRED' })).toEqual({ sql: '(listings.status = ?)', params: ['EXPIRED'] })
    const f = filterWhere({ city_id: 4, state_id: 2, country_id: 1, min_budget: 0, max_budget: 10 })
    expect(f).toEqual({ sql: "(listings.city_id = ?) and (listings.budget <= ?) and (listings.status <> 'EXPIRED')", params: [4, 10] })
  })

  test('a module admin without a city sees nothing', () => {
    expect(visibleTo({ id: 1, role: 'MODULE_ADMIN', cityId: null })).toEqual({ sql: 'false', params: [] })
  })
})
