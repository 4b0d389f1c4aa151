// The `Live updates` switch and what the stream is doing, for every page that follows a
// character's events (the tracker, a route's navigation, the build page).
import type { Signal } from '@preact/signals'
import type { LiveMode } from '../live'

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
