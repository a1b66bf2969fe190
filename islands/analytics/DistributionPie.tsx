import { SeriesMarker } from './SeriesMarker'
import { SERIES, TEXT } from './text'

export type Slice = { key: string; label: string; value: number; color: string }

const W = 320
const H = 256
const CX = W / 2
const CY = H / 2
const R = 100
/** Slices narrower than this share of the circle carry their label just outside, where it fits. */
const INSIDE_MIN = 0.08

/** Whole percentages, no decimals (SPEC), of each slice. */
export const percentages = (slices: Slice[]) => {
  const total = slices.reduce((s, x) => s + x.value, 0)
  return slices.map((s) => (total > 0 ? Math.round((s.value / total) * 100) : 0))
}

const at = (angle: number, radius: number) => [CX + radius * Math.cos(angle), CY + radius * Math.sin(angle)] as const
const round = (n: number) => Math.round(n * 100) / 100

/**
 * Requirements versus availabilities as a pie with percentage labels (SPEC "Listing Distribution"), drawn as a plain
 * SVG on the server: no script, no library, complete before hydration. Colours are SVG attributes, which the
 * Content-Security-Policy (style-src 'self') allows where inline style attributes would be refused.
 */
export function DistributionPie({ requirements, availabilities }: { requirements: number; availabilities: number }) {
  const slices: Slice[] = [
    { key: 'requirements', label: SERIES.requirements.label, value: requirements, color: SERIES.requirements.color },
    { key: 'availabilities', label: SERIES.availabilities.label, value: availabilities, color: SERIES.availabilities.color },
  ]
  const total = requirements + availabilities
  if (total <= 0)
    return (
      <div className="flex h-80 items-center justify-center text-base-content/60" data-distribution-empty>
        {TEXT.distributionEmpty}
      </div>
    )

  const percents = percentages(slices)
  const summary = slices.map((s, i) => `${s.label} ${percents[i]}% (${s.value.toLocaleString('en-US')})`).join(', ')
  let start = -Math.PI / 2
  const drawn = slices.flatMap((s, i) => {
    if (s.value <= 0) return []
    const share = s.value / total
    const end = start + share * 2 * Math.PI
    const mid = (start + end) / 2
    const [x1, y1] = at(start, R)
    const [x2, y2] = at(end, R)
    const d = share >= 1 ? null : `M${CX} ${CY}L${round(x1)} ${round(y1)}A${R} ${R} 0 ${share > 0.5 ? 1 : 0} 1 ${round(x2)} ${round(y2)}Z`
    const inside = share >= INSIDE_MIN
    const [lx, ly] = share >= 1 ? [CX, CY] : at(mid, inside ? R * 0.62 : R + 14)
    const anchor: 'middle' | 'start' | 'end' = inside || Math.abs(lx - CX) < 8 ? 'middle' : lx > CX ? 'start' : 'end'
    start = end
    return [{ ...s, d, percent: percents[i], lx: round(lx), ly: round(ly), inside, anchor }]
  })

  return (
    <div className="flex h-80 flex-col items-center justify-center gap-3">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-64 w-full" role="img" aria-label={`${TEXT.distributionTitle}: ${summary}`} data-distribution>
        {drawn.map((s) =>
          s.d ? (
            <path key={s.key} d={s.d} fill={s.color} stroke="#ffffff" strokeWidth={2} data-slice={s.key} />
          ) : (
            <circle key={s.key} cx={CX} cy={CY} r={R} fill={s.color} data-slice={s.key} />
          ),
        )}
        {drawn.map((s) => (
          <text
            key={s.key}
            x={s.lx}
            y={s.ly}
            textAnchor={s.anchor}
            dominantBaseline="central"
            fontSize={14}
            fontWeight={600}
            fill={s.inside ? '#ffffff' : '#334155'}
            data-slice-label={s.key}
          >
            {`${s.percent}%`}
          </text>
        ))}
      </svg>
      <ul className="flex flex-wrap justify-center gap-x-6 gap-y-1 text-sm">
        {slices.map((s) => (
          <li key={s.key} className="flex items-center gap-2">
            <SeriesMarker color={s.color} />
            <span>{`${s.label}: ${s.value.toLocaleString('en-US')}`}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
