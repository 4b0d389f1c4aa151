// English for counted and named things in sentences the server and the website write: "1 stack",
// "2 stacks", "a Human", "an Aasimar". One place, so that no page says "1 stacks" or "a Elf".

/** "1 level", "3 levels"; `many` for irregular plurals ("1 past life", "2 past lives"). */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

/** "level 11", "levels 5 to 10": a range of levels that may be one level. */
export const levelSpan = (from: number, to: number): string =>
  from === to ? `level ${from}` : `levels ${from} to ${to}`

/** "a Human", "an Aasimar", "an Elf": the article by the word's first letter. */
export const withArticle = (word: string): string => `${/^[aeiou]/i.test(word.trim()) ? 'an' : 'a'} ${word}`

/** Past lives as a player counts them: stacks, and the kinds they are of when that differs. */
export function pastLifeCount(kinds: number, stacks: number): string {
  const lives = count(stacks, 'past life', 'past lives')
  return kinds === stacks ? lives : `${lives} of ${count(kinds, 'kind')}`
}
