/** The series' colour, as the chart and the pie draw it (an SVG attribute: no inline style under the CSP). */
export function SeriesMarker({ color }: { color: string }) {
  return (
    <svg viewBox="0 0 12 12" className="h-3 w-3 shrink-0" aria-hidden="true">
      <rect width={12} height={12} rx={2} fill={color} />
    </svg>
  )
}
