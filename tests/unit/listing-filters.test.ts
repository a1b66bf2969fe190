import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { currencyFor, DEFAULT_CURRENCY, FILTER_CURRENCY, formatSize, listingCurrency, userCurrency } from '../../src/shared/currency'
import { formatMoney, moneyWithCode } from '../../src/shared/money'
import { describeListingError, exportFileName, exportUrl, formatListingDate, listingsUrl, safeMapUrl, showingResults } from '../../islands/listings/listing-format'
import { formValues, listingPayload } from '../../islands/listings/ListingFormDialog'
import { parseListingFilters, serializeListingFilters, type ListingFilterState } from '../../islands/listings/url-filters'
import { urlWithFilters } from '../../islands/listings/useListingFilters'
import { ApiError } from '../../islands/shared/api'
import { checkForm, type ObjectSchema } from '../../islands/shared/form-rules'
import { CreateListingBody, ListingQuery, UpdateListingBody, type Listing } from '../../src/modules/listings/model'

const parse = (qs: string) => parseListingFilters(new URLSearchParams(qs))

// SPEC section 5 "Listing filters from the URL query": invalid values are ignored.
describe('parseListingFilters', () => {
  test('takes every valid filter, typed', () => {
    expect(
      parse(
        'search=+Sea+view+&post_type=AVL&status=ON_HOLD&sale_or_rent=RENT&property_type=Villa&location=Outskirts&min_budget=100000&max_budget=2500000.5' +
          '&date_from=2026-01-01&date_to=2026-02-28&country_id=1&state_id=2&city_id=3&page=4&per_page=100',
      ),
    ).toEqual({
      search: 'Sea view',
      post_type: 'AVL',
      status: 'ON_HOLD',
      sale_or_rent: 'RENT',
      property_type: 'Villa',
      location: 'Outskirts',
      min_budget: 100000,
      max_budget: 2500000.5,
      date_from: '2026-01-01',
      date_to: '2026-02-28',
      country_id: 1,
      state_id: 2,
      city_id: 3,
      page: 4,
      per_page: 100,
    })
  })

  test.each([
    ['post_type=BOGUS', 'an unknown post type'],
    ['post_type=req', 'a post type in the wrong case'],
    ['status=DELETED', 'an unknown status'],
    ['sale_or_rent=LEASE', 'neither sale nor rent'],
    ['location=north', 'a zone in the wrong case'],
    ['location=Downtown', 'an unknown zone'],
    ['min_budget=abc', 'a budget that is not a number'],
    ['min_budget=-5', 'a negative budget'],
    ['min_budget=1e6', 'a budget in exponent form'],
    ['min_budget=0', 'a minimum of 0 (no minimum)'],
    ['max_budget=12 apples', 'a budget in words it does not know'],
    ['date_from=2026-02-31', 'a day that does not exist'],
    ['date_to=2026-13-01', 'a month that does not exist'],
    ['date_from=21-11-2026', 'a date in another format'],
    ['date_from=2026-1-5', 'a date without leading zeros'],
    ['city_id=0', 'an id of 0'],
    ['city_id=-3', 'a negative id'],
    ['state_id=1.5', 'a fractional id'],
    ['country_id=abc', 'an id that is not a number'],
    ['page=0', 'page 0'],
    ['page=2.5', 'a fractional page'],
    ['per_page=30', 'a page size not offered'],
    ['search=%20%20%20', 'a search of spaces only'],
    ['search=&property_type=', 'empty values'],
    ['unknown=1&sort=desc', 'parameters it does not know'],
  ])('ignores %s (%s)', (qs) => {
    expect(parse(qs)).toEqual({})
  })

  test('budgets of any size, as digits or as brokers write them (issue 32)', () => {
    expect(parse('max_budget=25000000')).toEqual({ max_budget: 25_000_000 })
    expect(parse('min_budget=45k&max_budget=1.2cr')).toEqual({ min_budget: 45_000, max_budget: 12_000_000 })
    expect(parse('max_budget=35L')).toEqual({ max_budget: 3_500_000 })
  })

  test('possible duplicates: only "true" sets it', () => {
    expect(parse('possible_duplicates=true')).toEqual({ possible_duplicates: true })
    expect(parse('possible_duplicates=1&possible_duplicates=yes')).toEqual({})
    expect(parse('possible_duplicates=false')).toEqual({})
  })

  test('changed since: a date and time with its zone, written back in UTC; anything else ignored', () => {
    expect(parse('changed_since=2026-11-20T10:15:30.123Z')).toEqual({ changed_since: '2026-11-20T10:15:30.123Z' })
    expect(parse(`changed_since=${encodeURIComponent('2026-11-20T15:45+05:30')}`)).toEqual({ changed_since: '2026-11-20T10:15:00.000Z' })
    for (const bad of ['yesterday', '2026-11-20', '2026-11-20T10:15', '2026-02-30T10:00:00Z', '2026-11-20T25:00:00Z', '1'])
      expect(parse(`changed_since=${encodeURIComponent(bad)}`), bad).toEqual({})
    expect(Value.Check(ListingQuery, parse('changed_since=2026-11-20T15:45%2B05:30'))).toBe(true)
  })

  test('keeps the valid values next to an invalid one', () => {
    expect(parse('post_type=AVL&location=North&per_page=10&status=BOGUS')).toEqual({ post_type: 'AVL', location: 'North', per_page: 10 })
  })

  test('accepts a leap day, and a plain object query as the server passes it', () => {
    expect(parse('date_from=2028-02-29').date_from).toBe('2028-02-29')
    expect(parse('date_from=2027-02-29').date_from).toBeUndefined()
    expect(parseListingFilters({ post_type: 'REQ', page: '2', max_budget: undefined, status: 'nope' })).toEqual({ post_type: 'REQ', page: 2 })
  })

  test('caps text at 200 characters', () => {
    expect(parse(`search=${'a'.repeat(500)}`).search).toHaveLength(200)
    expect(parse(`property_type=${'b'.repeat(500)}`).property_type).toHaveLength(100)
  })

  test('whatever the URL holds, the result is a query the API accepts', () => {
    const queries = [
      'search=x&post_type=AVL&status=SUSPENDED&sale_or_rent=SALE&property_type=Plot&location=East&min_budget=5&max_budget=9999999&date_from=2026-01-01&date_to=2026-12-31&country_id=1&state_id=1&city_id=1&page=1&per_page=25',
      'post_type=x&status=y&min_budget=-1&max_budget=abc&date_from=2026-02-30&page=-1&per_page=7&city_id=0',
      `search=${'€'.repeat(300)}&property_type=${'b'.repeat(300)}`,
    ]
    // `page` is written in the URL as text (src/shared/schema.ts pageNumber): check the query in its encoded form.
    for (const qs of queries) expect(Value.Check(ListingQuery, Value.Encode(ListingQuery, parse(qs)))).toBe(true)
  })
})

describe('serializeListingFilters', () => {
  test('keys in a stable order, empty values left out', () => {
    expect(serializeListingFilters({ post_type: 'AVL', location: 'North', search: '', per_page: 10, status: undefined })).toBe('location=North&per_page=10&post_type=AVL')
    expect(serializeListingFilters({})).toBe('')
  })

  test('a shared link reopens the same filters', () => {
    const state: ListingFilterState = {
      search: 'sea view & garden',
      post_type: 'REQ',
      sale_or_rent: 'SALE',
      property_type: '2 BHK Apartment',
      location: 'Central',
      min_budget: 200000,
      max_budget: 900000,
      date_from: '2026-03-01',
      date_to: '2026-03-31',
      city_id: 7,
      page: 3,
      per_page: 50,
    }
    expect(parse(serializeListingFilters(state))).toEqual(state)
  })

  test('the URL of a view leaves out page 1 and the default page size, and keeps the hash', () => {
    const loc = { pathname: '/dashboard/listings', hash: '#top' }
    expect(urlWithFilters(loc, { page: 1, per_page: 25 }, 25)).toBe('/dashboard/listings#top')
    expect(urlWithFilters(loc, { post_type: 'AVL', page: 2, per_page: 10 }, 25)).toBe('/dashboard/listings?page=2&per_page=10&post_type=AVL#top')
  })

  test('the list and export URLs carry the same filters; the export no paging', () => {
    expect(listingsUrl({ post_type: 'AVL', page: 2, per_page: 25 })).toBe('/api/listings/?page=2&per_page=25&post_type=AVL')
    expect(listingsUrl({})).toBe('/api/listings/')
    expect(exportUrl({ post_type: 'AVL', search: 'villa', page: 2, per_page: 25 })).toBe('/api/listings/export/xlsx?post_type=AVL&search=villa')
    expect(exportUrl({ page: 1 })).toBe('/api/listings/export/xlsx')
  })
})

// SPEC section 3 "Currency table": exact, then case-insensitive, then partial; USD otherwise. Filters use the rupee.
describe('currencyFor', () => {
  test.each([
    ['India', '₹', 'INR'],
    ['United States', '$', 'USD'],
    ['USA', '$', 'USD'],
    ['United Kingdom', '£', 'GBP'],
    ['UK', '£', 'GBP'],
    ['Germany', '€', 'EUR'],
    ['France', '€', 'EUR'],
    ['Spain', '€', 'EUR'],
    ['Italy', '€', 'EUR'],
    ['Netherlands', '€', 'EUR'],
    ['Canada', 'C$', 'CAD'],
    ['Australia', 'A$', 'AUD'],
    ['Japan', '¥', 'JPY'],
    ['China', '¥', 'CNY'],
    ['Singapore', 'S$', 'SGD'],
    ['United Arab Emirates', 'د.إ', 'AED'],
    ['UAE', 'د.إ', 'AED'],
    ['Saudi Arabia', '﷼', 'SAR'],
  ])('%s: %s %s', (country, symbol, code) => {
    expect(currencyFor(country)).toMatchObject({ symbol, code })
  })

  test('case-insensitive', () => {
    expect(currencyFor('INDIA').code).toBe('INR')
    expect(currencyFor('united kingdom').code).toBe('GBP')
    expect(currencyFor('uae').code).toBe('AED')
  })

  test('partial, by words', () => {
    expect(currencyFor('Republic of India').code).toBe('INR')
    expect(currencyFor('The Netherlands').code).toBe('EUR')
    expect(currencyFor('Emirates').code).toBe('AED')
    expect(currencyFor('Saudi').code).toBe('SAR')
    expect(currencyFor('Great Britain (UK)').code).toBe('GBP')
    expect(currencyFor("People's Republic of China").code).toBe('CNY')
    expect(currencyFor('Aus').code).toBe('AUD')
  })

  test('short names never match inside other words', () => {
    expect(currencyFor('Ukraine')).toEqual(DEFAULT_CURRENCY) // not UK's pound
    expect(currencyFor('US')).toEqual(DEFAULT_CURRENCY) // not Australia's dollar (the code is USD either way)
    expect(currencyFor('us').symbol).toBe('$')
    expect(currencyFor('in')).toEqual(DEFAULT_CURRENCY) // not India
    expect(currencyFor('British Indian Ocean Territory')).toEqual(DEFAULT_CURRENCY)
  })

  test('USD when unknown or missing; the filters default to the rupee', () => {
    for (const c of ['Brazil', '', null, undefined, '   ', '(']) expect(currencyFor(c)).toEqual({ symbol: '$', code: 'USD' })
    expect(FILTER_CURRENCY).toEqual({ symbol: '₹', code: 'INR', locale: 'en-IN' })
  })

  test('amounts with the symbol, grouped as the country does (Indian grouping for rupees); sizes in sq ft', () => {
    expect(formatMoney(1500000, currencyFor('India'))).toBe('₹15,00,000')
    expect(formatMoney(0, currencyFor('Japan'))).toBe('¥0')
    expect(formatMoney(1234.6, currencyFor('Canada'))).toBe('C$1,235')
    expect(formatMoney(null, FILTER_CURRENCY)).toBe('')
    expect(formatSize(2400)).toBe('2,400 sq ft')
    expect(formatSize(undefined)).toBe('')
  })

  test('a symbol written right to left is isolated and stays in front of the digits', () => {
    expect(formatMoney(352000, currencyFor('United Arab Emirates'))).toBe('\u2067د.إ\u2069\u00a0352,000')
    expect(formatMoney(5000, currencyFor('Saudi Arabia'))).toBe('\u2067﷼\u2069\u00a05,000')
    expect(moneyWithCode(352000, currencyFor('UAE'))).toBe('AED 352,000')
  })

  test("a listing's price is in its country's currency; the user's own (rupee without a country) is for filters and new listings", () => {
    expect(listingCurrency({ country_name: 'United Arab Emirates' }).code).toBe('AED')
    expect(listingCurrency({ country_name: 'India' }).code).toBe('INR')
    expect(userCurrency('United Kingdom').code).toBe('GBP')
    expect(userCurrency(null)).toEqual(FILTER_CURRENCY)
    expect(userCurrency(' ')).toEqual(FILTER_CURRENCY)
  })
})

describe('listing formats', () => {
  test('dates, the footer, the export name, map links', () => {
    expect(formatListingDate('2026-11-21')).toBe('Nov 21, 2026')
    expect(formatListingDate('garbage')).toBe('garbage')
    expect(showingResults(1, 25, 312)).toBe('Showing 1 to 25 of 312 results')
    expect(showingResults(13, 25, 312)).toBe('Showing 301 to 312 of 312 results')
    expect(showingResults(1, 25, 0)).toBe('Showing 0 to 0 of 0 results')
    expect(exportFileName(new Date(2026, 0, 5))).toBe('listings-2026-01-05.xlsx')
    expect(safeMapUrl(' https://maps.google.com/?q=x ')).toBe('https://maps.google.com/?q=x')
    expect(safeMapUrl('javascript:alert(1)')).toBeNull()
    expect(safeMapUrl(null)).toBeNull()
  })

  test('a 422 list goes to its fields; another failure to the banner, the server detail first', () => {
    const fields = ['budget', 'contact_value']
    const invalid = new ApiError(422, { detail: [{ loc: ['body', 'budget'], msg: 'Budget must be positive' }, { loc: ['body', 'city_id'], msg: 'Invalid city' }] }, 'x')
    expect(describeListingError(invalid, fields, 'An error occurred')).toEqual({ fields: { budget: 'Budget must be positive' }, banner: 'Invalid city' })
    expect(describeListingError(new ApiError(409, { detail: 'Not allowed' }, 'Not allowed'), fields, 'An error occurred')).toEqual({ fields: {}, banner: 'Not allowed' })
    expect(describeListingError(new ApiError(0, null, 'Network error or request failed'), fields, 'An error occurred').banner).toBe('An error occurred')
    expect(describeListingError(new Error('boom'), fields, 'An error occurred').banner).toBe('An error occurred')
  })
})

// SPEC section 5 "Broker listing form": the browser applies the server's own rules and sends what the server accepts.
describe('the broker listing form', () => {
  // The schema exactly as the island receives it: the shared checker handles its nullable unions.
  const rules = JSON.parse(JSON.stringify(CreateListingBody)) as ObjectSchema
  const base = { ...formValues(null), contact_value: '+91 98200 12345', property_type: 'Villa' }
  const listing = {
    id: 9,
    entry_id: 'AVL-MUM-000009',
    post_type: 'AVL',
    sale_or_rent: 'RENT',
    property_type: 'Villa',
    contact_value: '+91 98200 12345',
    contact_name: 'Rahul Sharma',
    budget: 150000,
    size: 2400,
    location: 'West',
    locality: 'Juhu',
    reference: null,
    type_details: null,
    details: 'Sea view',
    comments: null,
    google_location_url: null,
    status: 'SUSPENDED',
  } as Listing

  test('defaults REQ, SALE, ACTIVE; an existing SUSPENDED listing shows as ACTIVE', () => {
    expect(formValues(null)).toMatchObject({ post_type: 'REQ', sale_or_rent: 'SALE', status: 'ACTIVE' })
    expect(formValues(listing)).toMatchObject({ status: 'ACTIVE', budget: '150000', locality: 'Juhu', reference: '' })
  })

  test('the messages of SPEC section 5', () => {
    const values = { post_type: undefined, sale_or_rent: undefined, contact_value: 'abc', property_type: 'V', budget: -1, size: -2, google_location_url: 'maps' }
    expect(checkForm(rules, values)).toEqual({
      post_type: 'Please select a post type',
      sale_or_rent: 'Please select sale or rent',
      contact_value: 'Contact value must be at least 5 characters',
      property_type: 'Property type is required',
      budget: 'Budget must be positive',
      size: 'Size must be positive',
      google_location_url: 'Please enter a valid URL',
    })
  })

  test('create: empty budget, size and URL are left out, and the server accepts the body', () => {
    const body = listingPayload({ ...base, budget: ' ', size: '', google_location_url: '' }, null)
    expect(body).toEqual({ post_type: 'REQ', sale_or_rent: 'SALE', contact_value: '+91 98200 12345', property_type: 'Villa', status: 'ACTIVE' })
    expect(Value.Check(CreateListingBody, body)).toBe(true)
    const full = listingPayload({ ...base, budget: '150000', size: '2400', location: 'West', google_location_url: 'https://maps.google.com/?q=x' }, null)
    expect(full).toMatchObject({ budget: 150000, size: 2400, location: 'West' })
    expect(Value.Check(CreateListingBody, full)).toBe(true)
  })

  test('edit: only what changed; an emptied field is cleared; an untouched SUSPENDED status is not sent', () => {
    const values = { ...formValues(listing), budget: '175000', locality: '' }
    const body = listingPayload(values, listing)
    expect(body).toEqual({ budget: 175000, locality: null })
    expect(Value.Check(UpdateListingBody, body)).toBe(true)
    expect(listingPayload(formValues(listing), listing)).toEqual({})
    expect(listingPayload({ ...formValues(listing), status: 'CLOSED' }, listing)).toEqual({ status: 'CLOSED' })
  })
})
