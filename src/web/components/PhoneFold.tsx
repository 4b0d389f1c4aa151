// On a phone, a bar that opens to show what it holds; on a wider screen, what it holds as it is
// (the bar hidden, styles.css). For the parts of a page that would push its main list off a
// phone's first screen.
import { useSignal } from '@preact/signals'
import type { ComponentChildren } from 'preact'

export function PhoneFold({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  const open = useSignal(false)
  return (
    <div class="phone-fold" data-open={open.value ? 'true' : 'false'}>
      <button
        type="button"
        class="button phone-fold-bar"
        aria-expanded={open.value}
        aria-controls={id}
        onClick={() => {
          open.value = !open.value
        }}
      >
        {label}
      </button>
      <div id={id} class="phone-fold-body">
        {children}
      </div>
    </div>
  )
}
