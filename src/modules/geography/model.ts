import { t } from 'elysia'
import { EXPIRY_DAYS, LIMITS } from '../../shared/constants'
import { id, text } from '../../shared/schema'

// Field rules and messages of SPEC section 5 "Geographic form".
const name = text({
  min: LIMITS.geoNameMin,
  max: 100,
  messages: { required: 'Name is required', minLength: 'Name must be at least 2 characters', maxLength: 'Name must be at most 100 characters' },
})
const code = text({
  min: LIMITS.geoCodeMin,
  max: LIMITS.geoCodeMax,
  messages: { required: 'Code is required', minLength: 'Code must be at least 2 characters', maxLength: 'Code must be at most 10 characters' },
  description: 'Upper-cased by the server',
})
const regionTooLong = 'NEWSCO region must be at most 50 characters'
// A union reports its own failure, not its members': it carries the message too.
const newscoRegion = t.Optional(
  t.Union([text({ max: LIMITS.newscoRegionMax, messages: { maxLength: regionTooLong } }), t.Null()], { errorMessage: { type: regionTooLong } }),
)

export const CountryBody = t.Object({ name, code })
export const StateBody = t.Object({ name, code, country_id: id({ required: 'Country is required' }) })
export const CityBody = t.Object({ name, state_id: id({ required: 'State is required' }), newsco_region: newscoRegion })
export type CountryBody = typeof CountryBody.static
export type StateBody = typeof StateBody.static
export type CityBody = typeof CityBody.static

export const Country = t.Object({ id: t.Integer(), name: t.String(), code: t.String() })
export const State = t.Object({ id: t.Integer(), name: t.String(), code: t.String(), country_id: t.Integer() })
export const City = t.Object({
  id: t.Integer(),
  name: t.String(),
  state_id: t.Integer(),
  newsco_region: t.Union([t.String(), t.Null()]),
  match_tolerance: t.Integer({ description: 'Percent over a requirement’s budget an availability may ask and still match (issue 15)' }),
  rent_days: t.Integer({ description: 'Days a RENT listing of the city stays on the network after posting or renewal (issue 17)' }),
  sale_days: t.Integer({ description: 'Days a SALE listing of the city stays on the network after posting or renewal (issue 17)' }),
})
// A city's listing expiry defaults (issue 17): whole days, EXPIRY_DAYS.min to .max.
const expiryDays = (deal: 'Rent' | 'Sale') => {
  const message = `${deal} listings must expire after a whole number of days from ${EXPIRY_DAYS.min} to ${EXPIRY_DAYS.max}`
  return t.Integer({
    minimum: EXPIRY_DAYS.min,
    maximum: EXPIRY_DAYS.max,
    description: `Days a ${deal.toUpperCase()} listing stays on the network after posting or renewal`,
    errorMessage: { type: message, minimum: message, maximum: message, required: message },
  })
}
export const ListingExpiryBody = t.Object({ rent_days: expiryDays('Rent'), sale_days: expiryDays('Sale') })
export type ListingExpiryBody = typeof ListingExpiryBody.static
export const ListingExpiry = t.Object({ city_id: t.Integer(), rent_days: t.Integer(), sale_days: t.Integer() })
export type ListingExpiry = typeof ListingExpiry.static

export const StateTree = t.Object({ ...State.properties, cities: t.Array(City) })
export const CountryTree = t.Object({ ...Country.properties, states: t.Array(StateTree) })
export type Country = typeof Country.static
export type State = typeof State.static
export type City = typeof City.static
export type CountryTree = typeof CountryTree.static

export const IdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
export const CountryIdParams = t.Object({ countryId: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) })
export const StatesQuery = t.Object({ country_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })) })
export const CitiesQuery = t.Object({ state_id: t.Optional(t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })) })
export { ErrorDetail as Detail } from '../../shared/schema'
