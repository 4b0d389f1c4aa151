// The `Live updates` switch and what the stream is doing, for every page that follows a
// character's events (the tracker, a route's navigation, the build page).
import type { Signal } from '@preact/signals'
import type { ComponentChildren } from 'preact'
import type { LiveMode } from '../live'
import { Messages } from './Messages'

const LIVE_STATUS: Readonly<Record<LiveMode, string>> = {
  off: 'off',
  connecting: 'connecting…',
  push: 'on',
  polling: 'on · polling',
}

export function LiveSwitch({ live, mode }: { live: Signal<boolean>; mode: Signal<LiveMode> }) {
  return (
    <div class="live">
      <label class="check">
        <input
          type="checkbox"
          checked={live.value}
          onChange={(e) => {
            live.value = e.currentTarget.checked
          }}
        />
        <span>Live updates</span>
      </label>
      <span class="live-state" data-mode={mode.value}>
        {LIVE_STATUS[mode.value]}
      </span>
    </div>
  )
}

interface LiveTopProps {
  live: Signal<boolean>
  mode: Signal<LiveMode>
  error: Signal<string | null>
  notice: Signal<string | null>
  /** The page's header. */
  children: ComponentChildren
}

/** The top of a character's page that follows the game: its header beside the switch, then its messages. */
export function LiveTop({ live, mode, error, notice, children }: LiveTopProps) {
  return (
    <>
      <div class="tracker-top">
        {children}
        <LiveSwitch live={live} mode={mode} />
      </div>
      <Messages error={error} notice={notice} />
    </>
  )
}
