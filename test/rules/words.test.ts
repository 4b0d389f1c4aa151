// Counted nouns and articles in the sentences pages and rules write ("1 stacks", "a Aasimar"
// were on the build page).
import { expect, test } from 'bun:test'
import { count, levelSpan, pastLifeCount, withArticle } from '../../src/rules/words'

test.each([
  [0, 'level', '0 levels'],
  [1, 'level', '1 level'],
  [2, 'level', '2 levels'],
])('count(%d, %s) is "%s"', (n, word, expected) => {
  expect(count(n, word)).toBe(expected)
})

test('count takes an irregular plural', () => {
  expect(count(1, 'past life', 'past lives')).toBe('1 past life')
  expect(count(3, 'past life', 'past lives')).toBe('3 past lives')
})

test.each([
  ['Human', 'a Human'],
  ['Aasimar', 'an Aasimar'],
  ['Elf', 'an Elf'],
  ['Half-Orc', 'a Half-Orc'],
  ['Eladrin', 'an Eladrin'],
  ['Wood Elf', 'a Wood Elf'],
])('withArticle(%s) is "%s"', (word, expected) => {
  expect(withArticle(word)).toBe(expected)
})

test('past lives count stacks, and name the kinds only when they differ', () => {
  expect(pastLifeCount(1, 1)).toBe('1 past life')
  expect(pastLifeCount(3, 3)).toBe('3 past lives')
  expect(pastLifeCount(2, 5)).toBe('5 past lives of 2 kinds')
  expect(pastLifeCount(1, 3)).toBe('3 past lives of 1 kind')
})

test('a range of levels says one level once: "level 11", not "levels 11 to 11"', () => {
  expect(levelSpan(11, 11)).toBe('level 11')
  expect(levelSpan(5, 10)).toBe('levels 5 to 10')
})
