import { useEffect, useId, useState, type ReactNode } from 'react'
import { LISTING_STATUSES, LOCATION_ZONES, POST_TYPE_LABELS, POST_TYPES, SALE_OR_RENT } from '../../src/shared/constants'
import { GeoSelect, type GeoOption, type GeoValue } from '../geo/GeoSelect'
import { Icon } from '../shared/icons'
import { FILTER_CURRENCY, type Currency } from '../../src/shared/currency'
import { ON_MARKET_OVER_DAYS } from '../../src/shared/days-on-market'
import { formatMoney, groupDigits, NOT_AN_AMOUNT, parseMoney } from '../../src/shared/money'
import { LISTING_TEXT, PROPERTY_TYPE_SUGGESTIONS, saleOrRentLabel, STATUS_LABELS } from './listing-format'
import type { ListingFilters } from './useListingFilters'
import type { ListingFilterState } from './url-filters'

export type FilterBarProps = {
  /** What the controls show: `useListingFilters().view`. */
  value: ListingFilterState
  /** Any filter changed; `undefined` clears it. `useListingFilters().change` applies selects at once and debounces text and budgets. */
  onChange: (patch: Partial<ListingFilters>) => void
  onClear: () => void
  /** Whether any filter is set (enables Clear filters); `useListingFilters().active`. */
  active: boolean
  /** Country, state and city selects (SPEC section 6: master and module admins only); changing a level clears the ones below. */
  showGeo?: boolean
  /** The admins' "Possible duplicates only" (duplicate control, issue 17). */
  showDuplicates?: boolean
  /** The admins' "Review requested only" (moderation, issue 29). */
  showReviewRequested?: boolean
  /** Countries for the geo selects' first view (states and cities load as they are chosen). */
  countries?: GeoOption[]
  /** Levels shown read-only, e.g. a module admin's own city. */
  lockedGeo?: Partial<Record<keyof GeoValue, boolean>>
  /** The budget fields' currency: the user's (`userCurrency`), the rupee sign by default (SPEC section 9). */
  currency?: Currency
  /** Prefix of the controls' ids, so two bars on one page do not clash. */
  idPrefix?: string
  /** Beside Clear filters: the saved searches' Save search and menu (islands/saved-searches). */
  saved?: ReactNode
}

/** The network's property types, plus the one in the URL if it is another (the server matches it exactly, in any case). */
const propertyTypeOptions = (current: string | undefined) => {
  const same = (p: string) => !!current && p.toLowerCase() === current.toLowerCase()
  const options: { value: string; label: string }[] = PROPERTY_TYPE_SUGGESTIONS.map((p) => ({ value: same(p) ? current! : p, label: p }))
  if (current && !options.some((o) => o.value === current)) options.push({ value: current, label: current })
  return options
}

/**
 * The listing filters of SPEC sections 2 and 9: search, post type, sale or rent, property type, zone, status, date range,
 * budget range (min and max fields that read `45k`, `35L`, `1.2cr` and digits: issue 32, in place of SPEC's sliders,
 * which could not bound a rent or a sale above ₹1 Cr), country/state/city and "possible duplicates
 * only" (issue 17) for admins, Clear.
 * Controlled: the state lives in `useListingFilters`, which mirrors it in the URL.
 */
export function FilterBar({
  value,
  onChange,
  onClear,
  active,
  showGeo = false,
  showDuplicates = false,
  showReviewRequested = false,
  countries,
  lockedGeo,
  currency = FILTER_CURRENCY,
  idPrefix = 'listing-filter',
  saved,
}: FilterBarProps) {
  const id = (name: string) => `${idPrefix}-${name}`
  // On a phone the filters other than the search fold away behind a Filters button that counts those set; from
  // 768 px they are always shown.
  const [open, setOpen] = useState(false)
  const set = panelCount(value, showGeo, showDuplicates, showReviewRequested)
  const select = <K extends keyof ListingFilters>(name: K, label: string, options: readonly { value: string; label: string }[], all: string) => (
    <div className="form-control">
      <label htmlFor={id(name)} className="label-text mb-1 block text-xs font-medium uppercase tracking-wide text-base-content/60">
        {label}
      </label>
      <select
        id={id(name)}
        className="select select-bordered select-sm w-full"
        value={(value[name] as string | undefined) ?? ''}
        onChange={(e) => onChange({ [name]: e.target.value || undefined } as Partial<ListingFilters>)}
      >
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
  const geo: GeoValue = { country_id: value.country_id ?? null, state_id: value.state_id ?? null, city_id: value.city_id ?? null }

  return (
    <section aria-label="Listing filters" className="card bg-base-100 shadow-sm">
      <div className="card-body gap-3 p-3 sm:p-4 md:gap-4">
        <div className="flex flex-wrap items-center gap-2 md:gap-3">
          <label className="input input-bordered input-sm flex w-full min-w-0 items-center gap-2 md:w-auto md:min-w-64 md:flex-1">
            <span className="sr-only">Search listings</span>
            <Icon name="search" className="h-4 w-4 opacity-60" />
            <input
              id={id('search')}
              type="search"
              className="grow"
              placeholder={LISTING_TEXT.searchPlaceholder}
              value={value.search ?? ''}
              onChange={(e) => onChange({ search: e.target.value || undefined })}
            />
          </label>
          <button
            type="button"
            className="btn btn-outline btn-sm md:hidden"
            aria-expanded={open}
            aria-controls={id('panel')}
            onClick={() => setOpen((o) => !o)}
            data-filters-toggle
          >
            <Icon name="filter" className="h-4 w-4" />
            Filters
            {set > 0 && (
              <span className="badge badge-primary badge-sm" data-filter-count={set}>
                {set}
                <span className="sr-only"> set</span>
              </span>
            )}
          </button>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClear} disabled={!active}>
            Clear filters
          </button>
          {saved}
        </div>

        <div id={id('panel')} className={`flex-col gap-3 md:flex md:gap-4 ${open ? 'flex' : 'hidden'}`} data-filters-panel>
        <div className="grid gap-3 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-5">
          {select('post_type', 'Post type', POST_TYPES.map((p) => ({ value: p, label: POST_TYPE_LABELS[p] })), 'All types')}
          {select('sale_or_rent', 'Sale / Rent', SALE_OR_RENT.map((v) => ({ value: v, label: saleOrRentLabel(v) })), 'Sale & rent')}
          {select('property_type', 'Property type', propertyTypeOptions(value.property_type), 'Any property')}
          {select('location', 'Zone', LOCATION_ZONES.map((z) => ({ value: z, label: z })), 'All zones')}
          {select('status', 'Status', LISTING_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })), 'All statuses')}
        </div>

        <div className="grid items-end gap-3 md:grid-cols-3">
          <div className="form-control">
            <span className="label-text mb-1 block text-xs font-medium uppercase tracking-wide text-base-content/60">Date range</span>
            <div className="flex items-center gap-1">
              <input
                id={id('date_from')}
                type="date"
                aria-label="From date"
                className="input input-bordered input-sm w-full min-w-0 px-2"
                value={value.date_from ?? ''}
                max={value.date_to}
                onChange={(e) => onChange({ date_from: e.target.value || undefined })}
              />
              <input
                id={id('date_to')}
                type="date"
                aria-label="To date"
                className="input input-bordered input-sm w-full min-w-0 px-2"
                value={value.date_to ?? ''}
                min={value.date_from}
                onChange={(e) => onChange({ date_to: e.target.value || undefined })}
              />
            </div>
          </div>
          <div className="grid grid-cols-2 gap-2 md:col-span-2">
            <BudgetField id={id('min_budget')} label="Min budget" value={value.min_budget} currency={currency} onChange={(n) => onChange({ min_budget: n || undefined })} />
            <BudgetField id={id('max_budget')} label="Max budget" value={value.max_budget} currency={currency} onChange={(n) => onChange({ max_budget: n ?? undefined })} />
          </div>
          {/* Days on market (issue 35): a listing that has not moved in two months is worth a call of its own. */}
          <label className="label min-h-11 cursor-pointer justify-start gap-2 p-0 text-sm">
            <input
              id={id('on_market_over_days')}
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={value.on_market_over_days !== undefined}
              onChange={(e) => onChange({ on_market_over_days: e.target.checked ? ON_MARKET_OVER_DAYS : undefined })}
            />
            On market over {value.on_market_over_days ?? ON_MARKET_OVER_DAYS} days
          </label>
        </div>

        {showGeo && (
          <GeoSelect
            idPrefix={id('geo')}
            value={geo}
            locked={lockedGeo}
            initial={countries ? { countries } : undefined}
            placeholders={{ country_id: 'All countries', state_id: 'All states', city_id: 'All cities' }}
            onChange={(next) => onChange({ country_id: next.country_id ?? undefined, state_id: next.state_id ?? undefined, city_id: next.city_id ?? undefined })}
          />
        )}
        {showDuplicates && (
          <label className="label cursor-pointer justify-start gap-2 p-0 text-sm">
            <input
              id={id('possible_duplicates')}
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={value.possible_duplicates === true}
              onChange={(e) => onChange({ possible_duplicates: e.target.checked || undefined })}
            />
            Possible duplicates only
          </label>
        )}
        {showReviewRequested && (
          <label className="label cursor-pointer justify-start gap-2 p-0 text-sm">
            <input
              id={id('review_requested')}
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={value.review_requested === true}
              onChange={(e) => onChange({ review_requested: e.target.checked || undefined })}
            />
            Review requested only
          </label>
        )}
        </div>
      </div>
    </section>
  )
}

/**
 * How many filters of the folding panel are set (the search stays in view): post type, sale or rent, property type,
 * zone, status, the date range, the budget range and, for admins, the place, "possible duplicates" and "review requested",
 * each counting once.
 */
export function panelCount(f: ListingFilterState, withPlace: boolean, withDuplicates = false, withReview = false): number {
  const set = (...values: unknown[]) => values.some((v) => v !== undefined && v !== null && v !== '')
  return [
    set(f.post_type),
    set(f.sale_or_rent),
    set(f.property_type),
    set(f.location),
    set(f.status),
    set(f.date_from, f.date_to),
    set(f.min_budget, f.max_budget),
    set(f.on_market_over_days),
    withPlace && set(f.country_id, f.state_id, f.city_id),
    withDuplicates && set(f.possible_duplicates),
    withReview && set(f.review_requested),
  ].filter(Boolean).length
}

/**
 * A budget bound as brokers write it: `45k`, `35L`, `1.2cr` or digits (src/shared/money.ts reads it), the amount it
 * means shown under it in full; something else is not applied and says so. Empty means no bound. The letters
 * keyboard, since lakh and crore are letters.
 */
function BudgetField({ id, label, value, currency, onChange }: { id: string; label: string; value: number | undefined; currency: Currency; onChange: (n: number | undefined) => void }) {
  const [text, setText] = useState(value === undefined ? '' : groupDigits(value, currency))
  const hint = useId()
  // Cleared or replaced from outside (Clear filters, a saved search): the field shows the new bound.
  useEffect(() => {
    setText((t) => (parseMoney(t) === (value ?? null) || (t.trim() === '' && value === undefined) ? t : value === undefined ? '' : groupDigits(value, currency)))
  }, [value, currency])
  const parsed = parseMoney(text)
  const bad = text.trim() !== '' && parsed === null
  return (
    <div className="form-control min-w-0">
      <label htmlFor={id} className="mb-1 block text-xs font-medium uppercase tracking-wide text-base-content/60">
        {label}
      </label>
      <input
        id={id}
        type="text"
        inputMode="text"
        autoComplete="off"
        enterKeyHint="search"
        className={`input input-bordered w-full min-w-0 ${bad ? 'input-error' : ''}`}
        placeholder="45k, 35L, 1.2cr"
        value={text}
        aria-invalid={bad || undefined}
        aria-describedby={hint}
        onChange={(e) => {
          setText(e.target.value)
          const n = parseMoney(e.target.value)
          if (e.target.value.trim() === '') onChange(undefined)
          else if (n !== null) onChange(n)
        }}
      />
      <p id={hint} className={`mt-1 text-xs ${bad ? 'text-error' : 'text-base-content/70'}`} data-budget-text aria-live="polite">
        {bad ? NOT_AN_AMOUNT : parsed === null ? 'Any' : formatMoney(parsed, currency)}
      </p>
    </div>
  )
}
