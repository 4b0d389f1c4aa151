// The stats page's plots as uPlot options: horizontal bars (one bar per quest or patron, names
// readable on the left), and lines or bars over calendar days. Colours come from the theme.
import type uPlot from 'uplot'
import type { ChartOptions } from './Chart'

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 })
const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })

const DAY = 86_400
/** Time ticks a whole number of days apart (uPlot would otherwise tick hours between days). */
const DAY_STEPS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 182 * DAY, 365 * DAY]
/** Count ticks on whole numbers. */
const WHOLE_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000]

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

export interface BarSeries {
  label: string
  /** Index into the theme's series colours. */
  color: 0 | 1 | 2
  /** Bar thickness as a share of the row: an overlaid narrower bar reads as "of the wider one". */
  size: number
  /**
   * Drawn as an outline in the text's muted colour (the "of how much" bar), so it keeps a 3:1
   * contrast with the background and the filled bar inside it stays readable.
   */
  outline?: boolean
}

/**
 * One row per label, bars growing to the right from 0: uPlot's x scale turned vertical
 * (`ori: 1`), first label on top (`dir: -1`). Several series are drawn over each other.
 */
export function horizontalBars(labels: readonly string[], series: readonly BarSeries[]): ChartOptions {
  return (theme, lib, width) => {
    const labelWidth = Math.round(Math.min(220, Math.max(110, width * 0.36)))
    const chars = Math.floor(labelWidth / 7.5) - 1
    return {
      legend: { show: series.length > 1, live: false },
      cursor: { show: false },
      scales: {
        x: { time: false, ori: 1, dir: -1, range: [-0.5, labels.length - 0.5] },
        y: { ori: 0, range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] },
      },
      axes: [
        {
          scale: 'x',
          side: 3,
          size: labelWidth,
          font: theme.font,
          stroke: theme.text,
          grid: { show: false },
          ticks: { show: false },
          splits: () => labels.map((_, i) => i),
          values: (_u, splits) => splits.map((i) => truncate(labels[i] ?? '', chars)),
        },
        {
          scale: 'y',
          side: 2,
          space: 60,
          font: theme.font,
          stroke: theme.muted,
          grid: { stroke: theme.grid, width: 1 },
          ticks: { stroke: theme.grid, width: 1 },
          values: (_u, values) => values.map((v) => compact.format(v)),
        },
      ],
      series: [
        {},
        ...series.map(
          (s): uPlot.Series => ({
            label: s.label,
            stroke: s.outline ? theme.muted : theme.series[s.color],
            fill: s.outline ? 'transparent' : theme.series[s.color],
            width: s.outline ? 1.5 : 0,
            points: { show: false },
            paths: lib.paths.bars?.({ size: [s.size, 28] }),
          }),
        ),
      ],
    }
  }
}

export interface TimeSeries {
  label: string
  color: 0 | 1 | 2
  /** Series on the same scale share an axis; the second scale gets the right-hand axis. */
  scale: string
  /** Counts: ticks on whole numbers. */
  whole?: boolean
  kind: 'line' | 'step' | 'bars'
}

/** Values over calendar days (x in seconds since 1970, local midnight). */
export function overTime(series: readonly TimeSeries[]): ChartOptions {
  const scales = [...new Set(series.map((s) => s.scale))]
  return (theme, lib) => ({
    legend: { show: true, live: false },
    cursor: { show: false },
    scales: {
      // The first to the last day of the data, and half a day each side, so their bars and points
      // are not cut in half. From the data, not the min and max uPlot hands over: for one day it
      // passes that day plus 86,400 of its milliseconds, which in seconds is a thousand days.
      x: {
        time: true,
        range: (u, min, max) => {
          const days = u.data[0]
          const first = days[0] ?? min
          const last = days[days.length - 1] ?? max
          return [first - DAY / 2, last + DAY / 2]
        },
      },
      ...Object.fromEntries(scales.map((s) => [s, { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] }])),
    } satisfies uPlot.Scales,
    axes: [
      {
        font: theme.font,
        stroke: theme.muted,
        space: 70,
        incrs: DAY_STEPS,
        grid: { stroke: theme.grid, width: 1 },
        ticks: { stroke: theme.grid, width: 1 },
        values: (_u, values) => values.map((v) => shortDate.format(new Date(v * 1000))),
      },
      ...scales.map(
        (scale, i): uPlot.Axis => ({
          scale,
          side: i === 0 ? 3 : 1,
          font: theme.font,
          stroke: theme.series[series.find((s) => s.scale === scale)?.color ?? 0],
          grid: { show: i === 0, stroke: theme.grid, width: 1 },
          ticks: { stroke: theme.grid, width: 1 },
          incrs: series.some((s) => s.scale === scale && s.whole) ? WHOLE_STEPS : undefined,
          values: (_u, values) => values.map((v) => compact.format(v)),
        }),
      ),
    ],
    series: [
      {},
      ...series.map(
        (s): uPlot.Series => ({
          label: s.label,
          scale: s.scale,
          stroke: theme.series[s.color],
          width: s.kind === 'bars' ? 0 : 2,
          fill: s.kind === 'bars' ? theme.series[s.color] : undefined,
          points: { show: s.kind !== 'bars', size: 5, fill: theme.series[s.color] },
          paths:
            s.kind === 'bars'
              ? lib.paths.bars?.({ size: [0.6, 40] })
              : s.kind === 'step'
                ? lib.paths.stepped?.({ align: 1 })
                : undefined,
        }),
      ),
    ],
  })
}

/** A `YYYY-MM-DD` day at the browser's local midnight, in seconds (uPlot's time unit). */
export function daySeconds(day: string): number {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1).getTime() / 1000
}

/** The browser's calendar day of a timestamp, `YYYY-MM-DD`. */
export function localDay(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso.slice(0, 10)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}
