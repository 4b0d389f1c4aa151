// A view setting kept in this browser (localStorage), for the few choices that are not the
// character's saved progress: they belong to the person looking, not to the character the game
// plugin shares. Storage that is full or refused (private windows) only loses the memory.
import { effect, type Signal, signal } from '@preact/signals'

export function rememberedFlag(key: string, initial = false): Signal<boolean> {
  const flag = signal(read(key) ?? initial)
  effect(() => {
    try {
      localStorage.setItem(key, flag.value ? '1' : '0')
    } catch {
      // not kept: the page still works
    }
  })
  return flag
}

function read(key: string): boolean | undefined {
  try {
    const value = localStorage.getItem(key)
    return value === null ? undefined : value === '1'
  } catch {
    return undefined
  }
}
