import { LOCATION_ZONES, type LocationZone } from '../../../src/shared/constants'
import type { ZoneCounts } from '../../../src/modules/listings/model'

type Props = {
  /** How many listings match the filters in each zone, and in all (GET /api/listings/zones). */
  counts: ZoneCounts
  active: LocationZone | undefined
  onPick: (zone: LocationZone | undefined) => void
}

/**
 * All Zones and the six zones, each with how many listings of the filtered list it holds (the whole list, not the
 * page on screen); a click filters the list by that zone. On a phone the chips are one row that scrolls sideways.
 */
export function ZoneChips({ counts, active, onPick }: Props) {
  const chip = (label: string, count: number, zone: LocationZone | undefined) => {
    const on = active === zone
    return (
      <button
        key={label}
        type="button"
        className={`btn btn-sm shrink-0 rounded-full ${on ? 'btn-primary' : 'btn-outline'}`}
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
    <div role="group" aria-label="Location zones" className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1 sm:flex-wrap sm:overflow-visible">
      {chip('All Zones', counts.total, undefined)}
      {LOCATION_ZONES.map((z) => chip(z, counts.zones[z], z))}
    </div>
  )
}
