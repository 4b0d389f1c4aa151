// The bar that offers to undo an untick (undo.ts): what went, and an Undo button, at the foot of
// the screen where a thumb on a phone finds it, for as long as the offer lasts. The tracker's, and
// the quests × characters grid's (the same untick, the same undo).
import { type Undo, undoSentence } from './undo'

export function UndoBar({ undo }: { undo: Undo }) {
  const offers = undo.offers.value
  return (
    <div class="undo-bar" role="status" aria-live="polite">
      {offers.map((offer) => (
        <p class="undo-offer" key={offer.id} data-undo={`${offer.quest}|${offer.setting}`}>
          <span id={`undo-${offer.id}`}>{undoSentence(offer)}</span>
          <button type="button" class="button" aria-describedby={`undo-${offer.id}`} onClick={() => undo.undo(offer)}>
            Undo
          </button>
        </p>
      ))}
    </div>
  )
}
