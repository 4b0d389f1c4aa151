// A page that loads its data first: "Loading …" while it loads, what went wrong (and a way back)
// when it fails, in the site's frame with its navigation when someone is signed in, else the page
// drawn from the data. An optional `follow` starts whatever the
// loaded page keeps running (live updates) and returns how to stop it when the page goes.
import type { JSX } from 'preact'
import { useEffect, useLayoutEffect, useState } from 'preact/hooks'
import { errorMessage } from '../api'
import { pageShown } from '../firstScreen'
import { signedIn } from '../session'
import { ErrorMessage, Layout, Loading } from './Layout'

type Loaded<T> = { data: T } | { error: string } | null

function useLoad<T>(load: () => Promise<T>, follow?: (data: T) => () => void): Loaded<T> {
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
        if (!gone) setState({ error: errorMessage(e) })
      })
    return () => {
      gone = true
      stop?.()
    }
  }, [])
  return state
}

export interface Link {
  href: string
  label: string
}

export const TO_CHARACTERS: Link = { href: '/', label: 'Back to your characters' }
export const TO_ROUTES: Link = { href: '/routes', label: 'Back to the routes' }

interface PageDataProps<T> {
  /** The page's title while it loads and when it fails. */
  title: string
  /** What is loading: "the build" reads "Loading the build…". */
  what: string
  /** The failed page's heading (the title unless given; null for none) and its way back. */
  heading?: string | null
  back?: Link
  /** The width of the loading and failed page; the loaded page's own Layout says its own. */
  wide?: boolean
  load: () => Promise<T>
  follow?: (data: T) => () => void
  /** The loaded page, Layout and all. */
  children: (data: T) => JSX.Element
}

export function PageData<T>({ title, what, heading = title, back, wide, load, follow, children }: PageDataProps<T>) {
  const state = useLoad(load, follow)
  // Shown: a first screen the server drew gives way to this page, before the next frame.
  useLayoutEffect(() => {
    if (state !== null) pageShown()
  }, [state])
  if (state === null) {
    return (
      <Layout title={title} wide={wide}>
        <Loading what={what} />
      </Layout>
    )
  }
  if ('error' in state) {
    // Signed in (the loader found who), the failed page keeps the site's header and navigation.
    return (
      <Layout title={title} wide={wide} user={signedIn.value}>
        {heading !== null && <h1>{heading}</h1>}
        <ErrorMessage message={state.error} />
        {back && (
          <p>
            <a href={back.href}>{back.label}</a>
          </p>
        )}
      </Layout>
    )
  }
  return children(state.data)
}
