import type { Listing } from '../../../src/modules/listings/model'
import type { LocationZone } from '../../../src/shared/constants'
import { CHIP_ZONES } from './admin-text'

type Props = {
  /** The current page's rows: each zone chip counts only these (SPEC "Admin listings"). */
  rows: Listing[]
  /** The whole result's size, for 'All Zones'. */
  total: number
  active: LocationZone | undefined
  onPick: (zone: LocationZone | undefined) => void
}

/** All Zones, North, South, Central: a click filters the list by that zone. */
export function ZoneChips({ rows, total, active, onPick }: Props) {
  const chip = (label: string, count: number, zone: LocationZone | undefined) => {
    const on = active === zone
    return (
      <button
        key={label}
        type="button"
        className={`btn btn-sm rounded-full ${on ? 'btn-primary' : 'btn-outline'}`}
        aria-pressed={on}
        data-zone-chip={zone ?? 'all'}
        onClick={() => onPick(zone)}
      >
        {label}
        <span className={`badge badge-sm ${on ? 'badge-neutral' : 'badge-ghost'}`}>{count.toLocaleString('en-US')}</span>
      </button>
    )
  }
  return (
    <div role="group" aria-label="Location zones" className="flex flex-wrap gap-2">
      {chip('All Zones', total, undefined)}
      {CHIP_ZONES.map((z) =>
        chip(
          z,
          rows.filter((r) => r.location === z).length,
          z,
        ),
      )}
    </div>
  )
}
