// A button for something that cannot be undone (delete a route, sign out everywhere) that asks
// first: pressed, it gives way to the question and two buttons. Focus moves to the safe choice,
// so the button pressed vanishing does not drop keyboard focus to the top of the page.
import { useEffect, useRef, useState } from 'preact/hooks'

interface QuestionProps {
  question: string
  yes: string
  no: string
  onYes: () => void
  onNo: () => void
}

function Question({ question, yes, no, onYes, onNo }: QuestionProps) {
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

interface ConfirmProps extends Omit<QuestionProps, 'onNo'> {
  /** The button's words and class. */
  label: string
  class: string
}

export function Confirm({ label, class: className, ...question }: ConfirmProps) {
  const [asking, setAsking] = useState(false)
  if (asking) return <Question {...question} onNo={() => setAsking(false)} />
  return (
    <button type="button" class={className} onClick={() => setAsking(true)}>
      {label}
    </button>
  )
}
