// A second step before something that cannot be undone (delete a route, sign out everywhere):
// the question and two buttons in place of the one pressed. Focus moves to the safe choice, so
// the button pressed vanishing does not drop keyboard focus to the top of the page.
import { useEffect, useRef } from 'preact/hooks'

interface ConfirmProps {
  question: string
  yes: string
  no: string
  onYes: () => void
  onNo: () => void
}

export function Confirm({ question, yes, no, onYes, onNo }: ConfirmProps) {
  const noRef = useRef<HTMLButtonElement>(null)
  useEffect(() => noRef.current?.focus(), [])
  return (
    <fieldset class="confirm">
      <legend>{question}</legend>
      <button type="button" class="button danger" onClick={onYes}>
        {yes}
      </button>
      <button ref={noRef} type="button" class="button quiet" onClick={onNo}>
        {no}
      </button>
    </fieldset>
  )
}
