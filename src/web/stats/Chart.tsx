// One plot, drawn by uPlot on a canvas. The library is its own chunk, imported only when a
// chart mounts (the other pages never load it); its CSS is part of the site's stylesheet. It
// sets sizes and colours through element.style (allowed by the page's `style-src 'self'`) and
// injects no <style> element. The canvas cannot take CSS variables, so the theme's colours are
// read from them at draw time and the chart is drawn again when the system theme changes.

import { useEffect, useRef } from 'preact/hooks'
import type uPlot from 'uplot'

export interface ChartTheme {
  text: string
  muted: string
  grid: string
  series: readonly [string, string, string]
  font: string
}

/** The plot's options for a theme and a width (labels get narrower on a phone). */
export type ChartOptions = (
  theme: ChartTheme,
  lib: typeof uPlot,
  width: number,
) => Omit<uPlot.Options, 'width' | 'height'>

function readTheme(): ChartTheme {
  const css = getComputedStyle(document.documentElement)
  const v = (name: string) => css.getPropertyValue(name).trim()
  return {
    text: v('--text'),
    muted: v('--muted'),
    grid: v('--grid'),
    series: [v('--chart-1'), v('--chart-2'), v('--chart-3')],
    font: `12px ${v('--font')}`,
  }
}

export interface ChartProps {
  /** For tests and styles: `data-chart`. */
  name: string
  /** What the picture shows, for screen readers (the numbers are in the table below it). */
  label: string
  options: ChartOptions
  data: uPlot.AlignedData
  height: number
}

export function Chart({ name, label, options, data, height }: ChartProps) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = ref.current
    if (!el) return
    let plot: uPlot | undefined
    let gone = false
    const draw = async () => {
      let UPlot: typeof uPlot
      try {
        UPlot = (await import('uplot')).default
      } catch {
        // The plotting script did not load (the connection dropped, the server restarted with a
        // new build, or the page is being left: Firefox reports that as an error of the page).
        // The numbers are in the table below the chart.
        if (gone) return
        el.dataset.drawn = 'failed'
        el.textContent = 'This chart could not load; its numbers are in the table below.'
        return
      }
      if (gone) return
      plot?.destroy()
      const width = el.clientWidth
      const chosen = options(readTheme(), UPlot, width)
      // What the x axis spans (seconds on a time axis), for tests: they cannot read the canvas.
      const spanOfX = (u: uPlot, key: string) => {
        const x = u.scales.x
        if (key === 'x' && x?.min != null && x.max != null) el.dataset.xSpan = String(x.max - x.min)
      }
      const hooks = { ...chosen.hooks, setScale: [...(chosen.hooks?.setScale ?? []), spanOfX] }
      plot = new UPlot({ ...chosen, hooks, width, height }, data, el)
      el.dataset.drawn = 'true'
    }
    void draw()
    const resize = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height }))
    resize.observe(el)
    const scheme = matchMedia('(prefers-color-scheme: dark)')
    const redraw = () => void draw()
    scheme.addEventListener('change', redraw)
    return () => {
      gone = true
      resize.disconnect()
      scheme.removeEventListener('change', redraw)
      plot?.destroy()
    }
  }, [options, data, height])
  // role="img": the plot is one picture to a screen reader; its legend and axes are not read.
  return <div ref={ref} class="chart" data-chart={name} role="img" aria-label={label} />
}
