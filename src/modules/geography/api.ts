import { Elysia, t } from 'elysia'
import { can } from '../../platform/policy/permissions'
import { authGuard } from '../../platform/http/auth'
import type { AppContext } from '../../platform/context'
import { City, CityBody, CitiesQuery, Country, CountryBody, CountryIdParams, CountryTree, Detail, IdParams, ListingExpiry, ListingExpiryBody, State, StateBody, StatesQuery } from './model'
import * as geo from './service'
import { NoContent } from '../../shared/schema'

const tags = ['Geographic']
const publicRoute = (summary: string) => ({ detail: { tags, summary, security: [] } })
const errors = { 401: Detail, 403: Detail, 404: Detail, 409: Detail }

/** Countries, states and cities (SPEC section 7 "Geographic"). Reading is open; changing is for master admins. */
export const geographyApi = (ctx: AppContext) => {
  const { db } = ctx
  return (
    new Elysia({ name: 'geography-api', prefix: '/api/geographic' })
      .use(authGuard(ctx))
      // Public: registration needs them before anyone signs in.
      .get('/countries', async () => geo.listCountries(db), { response: t.Array(Country), ...publicRoute('List countries') })
      .get('/countries/:id/states', async ({ params }) => (await geo.getCountry(db, params.id), await geo.listStates(db, params.id)), {
        params: IdParams,
        response: { 200: t.Array(State), 404: Detail },
        ...publicRoute("List a country's states"),
      })
      .get('/states/:id/cities', async ({ params }) => (await geo.getState(db, params.id), await geo.listCities(db, params.id)), {
        params: IdParams,
        response: { 200: t.Array(City), 404: Detail },
        ...publicRoute("List a state's cities"),
      })
      // Signed in.
      .get('/states', async ({ query }) => geo.listStates(db, query.country_id), {
        permission: 'read:geography:any',
        query: StatesQuery,
        response: { 200: t.Array(State), 401: Detail },
        detail: { tags, summary: 'List states, optionally of one country' },
      })
      .get('/cities', async ({ query }) => geo.listCities(db, query.state_id), {
        permission: 'read:geography:any',
        query: CitiesQuery,
        response: { 200: t.Array(City), 401: Detail },
        detail: { tags, summary: 'List cities, optionally of one state' },
      })
      .get('/hierarchy', async () => geo.getHierarchy(db), {
        permission: 'read:geography:any',
        response: { 200: t.Array(CountryTree), 401: Detail },
        detail: { tags, summary: 'Countries with their states and cities' },
      })
      .get('/hierarchy/:countryId', async ({ params }) => (await geo.getHierarchy(db, params.countryId))[0]!, {
        permission: 'read:geography:any',
        params: CountryIdParams,
        response: { 200: CountryTree, 401: Detail, 404: Detail },
        detail: { tags, summary: 'One country with its states and cities' },
      })
      // Master admin only.
      .post('/countries', async ({ user, body, set }) => ((set.status = 201), await geo.createCountry(db, user, body)), {
        permission: 'manage:geography:any',
        body: CountryBody,
        response: { 201: Country, ...errors },
        detail: { tags, summary: 'Create a country' },
      })
      .put('/countries/:id', async ({ user, params, body }) => geo.updateCountry(db, user, params.id, body), {
        permission: 'manage:geography:any',
        params: IdParams,
        body: CountryBody,
        response: { 200: Country, ...errors },
        detail: { tags, summary: 'Update a country' },
      })
      .delete('/countries/:id', async ({ user, params, set }) => (await geo.deleteCountry(db, user, params.id), (set.status = 204), undefined), {
        permission: 'manage:geography:any',
        params: IdParams,
        response: { 204: NoContent('Deleted'), ...errors },
        detail: { tags, summary: 'Delete a country that has no states (409 otherwise)' },
      })
      .post('/states', async ({ user, body, set }) => ((set.status = 201), await geo.createState(db, user, body)), {
        permission: 'manage:geography:any',
        body: StateBody,
        response: { 201: State, ...errors },
        detail: { tags, summary: 'Create a state' },
      })
      .put('/states/:id', async ({ user, params, body }) => geo.updateState(db, user, params.id, body), {
        permission: 'manage:geography:any',
        params: IdParams,
        body: StateBody,
        response: { 200: State, ...errors },
        detail: { tags, summary: 'Update a state' },
      })
      .delete('/states/:id', async ({ user, params, set }) => (await geo.deleteState(db, user, params.id), (set.status = 204), undefined), {
        permission: 'manage:geography:any',
        params: IdParams,
        response: { 204: NoContent('Deleted'), ...errors },
        detail: { tags, summary: 'Delete a state that has no cities (409 otherwise)' },
      })
      .post('/cities', async ({ user, body, set }) => ((set.status = 201), await geo.createCity(db, user, body)), {
        permission: 'manage:geography:any',
        body: CityBody,
        response: { 201: City, ...errors },
        detail: { tags, summary: 'Create a city' },
      })
      .put('/cities/:id', async ({ user, params, body }) => geo.updateCity(db, user, params.id, body), {
        permission: 'manage:geography:any',
        params: IdParams,
        body: CityBody,
        response: { 200: City, ...errors },
        detail: { tags, summary: 'Update a city' },
      })
      .delete('/cities/:id', async ({ user, params, set }) => (await geo.deleteCity(db, user, params.id), (set.status = 204), undefined), {
        permission: 'manage:geography:any',
        params: IdParams,
        response: { 204: NoContent('Deleted'), ...errors },
        detail: { tags, summary: 'Delete a city no user or listing belongs to (409 otherwise)' },
      })
      // Master admin for any city, module admin for their own: as a city's match tolerance (issue 15).
      .put('/cities/:id/listing-expiry', async ({ user, params, body }) => geo.setListingExpiry(db, user, params.id, body), {
        permission: 'manage:listing:city',
        params: IdParams,
        body: ListingExpiryBody,
        response: { 200: ListingExpiry, 422: t.Any(), 401: Detail, 403: Detail, 404: Detail },
        detail: {
          tags,
          summary: "Set a city's listing expiry defaults (1–365 days for RENT and for SALE)",
          description:
            'How long a listing of the city stays on the network after posting or renewal: `rent_days` for RENT, `sale_days` for SALE (30 and 90 unless set). A master admin for any city, a module admin for their own (403 otherwise). Audited as `city.listing_expiry`.',
        },
      })
  )
}
