import { useEffect, useMemo, useRef } from 'react'
import uPlot from 'uplot'
import type { TrendPoint } from './report'
import { SERIES } from './text'

/** Seconds at UTC midnight: the chart's x values, shown in UTC so a calendar date never shifts a day. */
const toSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000
const utc = (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC')

const DAY_S = 86_400
/** x ticks fall on whole days (or months, or years), never between two days of data. */
const DAY_STEPS = [1, 2, 3, 4, 5, 6, 7, 10, 14, 15].map((n) => n * DAY_S).concat([1, 2, 3, 4, 6].map((n) => n * 30 * DAY_S), 365 * DAY_S)
/** 'Oct 23' rather than '10/23' (read as 10 March in much of the world); the year under the first tick and at a new year. */
const DATE_LABELS: uPlot.Axis.Values = [
  [365 * DAY_S, '{YYYY}', null, null, null, null, null, null, 1],
  [28 * DAY_S, '{MMM}', '\n{YYYY}', null, null, null, null, null, 1],
  [DAY_S, '{MMM} {D}', '\n{YYYY}', null, null, null, null, null, 1],
]
const AXIS = { font: '12px system-ui, sans-serif', stroke: '#64748b', grid: { stroke: '#e2e8f0', width: 1 }, ticks: { stroke: '#e2e8f0', width: 1 } }
/** Whole-number steps only: the chart counts listings. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 2_500, 5_000, 10_000, 20_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000]

const dayLabel = uPlot.fmtDate('{MMM} {D}, {YYYY}')
const LINES = [SERIES.requirements, SERIES.availabilities]
/** The legend's first label: the day under the pointer, or the latest day while the pointer is elsewhere. */
export const LEGEND_DATE = { hovered: 'Date', latest: 'Latest' }

/**
 * The legend's value of series `sidx` at `idx`; with no pointer over the chart (idx null), the latest day's, so
 * the legend reads as the period's last figures rather than a row of dashes.
 */
function legendValue(u: uPlot, sidx: number, idx: number | null): number | null {
  const values = u.data[sidx] ?? []
  const at = idx ?? values.length - 1
  return at >= 0 ? (values[at] ?? null) : null
}

function options(width: number, height: number): uPlot.Options {
  return {
    width,
    height,
    tzDate: utc,
    // Room on the right for the last day's label, centred on the edge.
    padding: [12, 24, 0, 0],
    cursor: { drag: { x: false, y: false } },
    hooks: {
      // Says which day the legend shows: the hovered one, or the latest.
      setLegend: [
        (u) => {
          const label = u.root.querySelector<HTMLElement>('.u-legend .u-series:first-child .u-label')
          if (label) label.textContent = u.legend.idx == null ? LEGEND_DATE.latest : LEGEND_DATE.hovered
        },
      ],
    },
    // Filled squares in the series' colours, as the pie's legend and the stat cards show them.
    legend: { live: true, markers: { fill: (_u, i) => LINES[i - 1]?.color ?? 'transparent' } },
    scales: {
      x: { time: true },
      y: { range: (_u, _min, max) => [0, max <= 4 ? 4 : Math.ceil(max * 1.1)] },
    },
    axes: [
      { ...AXIS, space: 64, incrs: DAY_STEPS, values: DATE_LABELS },
      { ...AXIS, incrs: COUNT_STEPS, values: (_u, splits) => splits.map((v) => v.toLocaleString('en-US')) },
    ],
    series: [
      {
        label: LEGEND_DATE.hovered,
        value: (u: uPlot, _v: number | null, sidx: number, idx: number | null) => {
          const v = legendValue(u, sidx, idx)
          return v == null ? '–' : dayLabel(utc(v))
        },
      },
      ...LINES.map((s) => ({
        label: s.label,
        stroke: s.color,
        width: 2,
        points: { size: 5, fill: s.color },
        value: (u: uPlot, _v: number | null, sidx: number, idx: number | null) => {
          const v = legendValue(u, sidx, idx)
          return v == null ? '–' : v.toLocaleString('en-US')
        },
      })),
    ],
  }
}

/**
 * Requirements and Availabilities per day (uPlot, drawn on a canvas). The server renders the box at its final
 * height and the chart mounts into it on hydration, so nothing moves; it follows the box's width as the window
 * resizes, the legend (with values under the cursor, else the latest day's) taking its share of the fixed height.
 */
export function TrendsChart({ points }: { points: TrendPoint[] }) {
  const hostRef = useRef<HTMLDivElement>(null)
  const chartRef = useRef<uPlot | null>(null)
  const data = useMemo<uPlot.AlignedData>(
    () => [points.map((p) => toSeconds(p.date)), points.map((p) => p.requirements), points.map((p) => p.availabilities)],
    [points],
  )
  const dataRef = useRef(data)
  dataRef.current = data

  useEffect(() => {
    const host = hostRef.current
    if (!host) return
    const chart = new uPlot(options(host.clientWidth, host.clientHeight), dataRef.current, host)
    chartRef.current = chart
    // Legend values get fixed widths, so the legend wraps the same whatever the cursor shows and the height
    // measured below stays right (set through the CSSOM, which style-src 'self' allows).
    chart.root.querySelectorAll<HTMLElement>('.u-legend .u-value').forEach((el, i) => {
      el.style.minWidth = i === 0 ? '7.5em' : '3.5em'
      el.style.textAlign = 'left'
    })
    const dateLabel = chart.root.querySelector<HTMLElement>('.u-legend .u-series:first-child .u-label')
    if (dateLabel) dateLabel.style.minWidth = '3.5em' // 'Latest' and 'Date' take the same room
    const fit = () => {
      const legend = chart.root.querySelector<HTMLElement>('.u-legend')?.offsetHeight ?? 0
      const width = host.clientWidth
      const height = Math.max(120, host.clientHeight - legend)
      if (width > 0 && (width !== chart.width || height !== chart.height)) chart.setSize({ width, height })
    }
    fit()
    const observer = new ResizeObserver(fit)
    observer.observe(host)
    return () => {
      observer.disconnect()
      chart.destroy()
      chartRef.current = null
    }
  }, [])

  useEffect(() => {
    chartRef.current?.setData(data)
  }, [data])

  return <div ref={hostRef} className="h-80 w-full overflow-hidden" data-trends-chart data-points={points.length} data-first-day={points[0]?.date} data-last-day={points.at(-1)?.date} />
}
