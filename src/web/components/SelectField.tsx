// A labelled drop-down: the label above it, a choice per option (a value, or a value and its
// words). The value handed back is always one of the options given.
import type { ComponentChildren } from 'preact'

interface SelectFieldProps<V extends string> {
  id: string
  label: ComponentChildren
  options: readonly (V | readonly [V, string])[]
  /** The choice shown; none for a form field (`name`) read on submit. */
  value?: V
  name?: string
  onChange?: (value: V) => void
}

export function SelectField<V extends string>({ id, label, options, value, name, onChange }: SelectFieldProps<V>) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} value={value} onChange={(e) => onChange?.(e.currentTarget.value as V)}>
        {options.map((option) => {
          const [v, words] = typeof option === 'string' ? [option, option] : option
          return (
            <option key={v} value={v}>
              {words}
            </option>
          )
        })}
      </select>
    </div>
  )
}
