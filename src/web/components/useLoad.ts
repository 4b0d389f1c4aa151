// A page's first load: null while loading, the data, or the sentence of what went wrong. An
// optional `follow` starts whatever the loaded page keeps running (live updates) and returns
// how to stop it when the page goes.
import { useEffect, useState } from 'preact/hooks'

export type Loaded<T> = { data: T } | { error: string } | null

export function useLoad<T>(load: () => Promise<T>, follow?: (data: T) => () => void): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>(null)
  useEffect(() => {
    let stop: (() => void) | undefined
    let gone = false
    load()
      .then((data) => {
        if (gone) return
        setState({ data })
        stop = follow?.(data)
      })
      .catch((e: unknown) => {
        if (!gone) setState({ error: e instanceof Error ? e.message : String(e) })
      })
    return () => {
      gone = true
      stop?.()
    }
  }, [])
  return state
}
