// Table tests of how a character body becomes stored fields: alias folding, the legacy name
// split, picklist spelling, login timestamps (profileFromInput is pure apart from its errors).
import { describe, expect, test } from 'bun:test'
import { profileFromInput, splitLegacyName } from '../../../src/modules/characters/service'

const NOW = '2026-11-21T12:00:00.000Z'

describe('splitLegacyName: at the first space', () => {
  test.each([
    ['Tordek Stonefist', 'Tordek', 'Stonefist'],
    ['Lidda Quick Fingers', 'Lidda', 'Quick Fingers'],
    ['  Solo  ', 'Solo', ''],
    ['Two  Spaces', 'Two', 'Spaces'],
  ])('%p -> %p / %p', (name, givenName, surname) => {
    expect(splitLegacyName(name)).toEqual({ givenName, surname })
  })
})

describe('profileFromInput', () => {
  const cases: [string, Parameters<typeof profileFromInput>[0], boolean, Record<string, unknown>][] = [
    [
      'canonical fields',
      { givenName: 'A', surname: 'B', epicLevels: 3 },
      false,
      { givenName: 'A', surname: 'B', epicLevels: 3 },
    ],
    [
      'aliases',
      { firstName: 'A', lastName: 'B', epic_levels: 2, classLevels: [{ name: 'Monk', levels: 4 }] },
      false,
      { givenName: 'A', surname: 'B', epicLevels: 2, classes: [{ name: 'Monk', levels: 4 }] },
    ],
    [
      'canonical wins over alias',
      { givenName: 'A', firstName: 'Z', surname: 'B', lastName: 'Y' },
      false,
      { givenName: 'A', surname: 'B' },
    ],
    ['legacy name', { name: 'Regdar the Brave' }, false, { givenName: 'Regdar', surname: 'the Brave' }],
    [
      'legacy name and explicit surname',
      { name: 'Regdar Brave', surname: 'Bold' },
      false,
      { givenName: 'Regdar', surname: 'Bold' },
    ],
    ['givenName present: legacy name ignored', { name: 'Old Name', givenName: 'New' }, false, { givenName: 'New' }],
    [
      'picklist spelling',
      { race: 'drow elf', alignment: 'lawful good', server: 'THRANE', gender: 'female' },
      false,
      { race: 'Drow Elf', alignment: 'Lawful Good', server: 'Thrane', gender: 'Female' },
    ],
    [
      'unknown values kept as sent',
      { race: 'Kobold', classes: [{ name: 'Shaman', levels: 1 }] },
      false,
      { race: 'Kobold', classes: [{ name: 'Shaman', levels: 1 }] },
    ],
    ['lastLoginAt now', { lastLoginAt: 'now' }, false, { lastLoginAt: NOW }],
    ['last_login_at alias, stored as UTC', { last_login_at: '2026-11-21T14:00:00+02:00' }, false, { lastLoginAt: NOW }],
    ['lastLoginAt null clears', { lastLoginAt: null }, false, { lastLoginAt: null }],
    ['touch sets now', {}, true, { lastLoginAt: NOW }],
    [
      'explicit timestamp wins over touch',
      { lastLoginAt: '2020-01-01T00:00:00Z' },
      true,
      { lastLoginAt: '2020-01-01T00:00:00.000Z' },
    ],
    ['nothing sent, nothing changes', {}, false, {}],
  ]
  for (const [why, input, touch, expected] of cases) {
    test(why, () => expect(profileFromInput(input, NOW, touch)).toEqual(expected))
  }

  test.each([
    [{ givenName: ' ' }, /givenName/],
    [{ firstName: '' }, /firstName/],
    [{ name: '' }, /name/],
    [
      {
        classes: [
          { name: 'Fighter', levels: 1 },
          { name: 'FIGHTER', levels: 2 },
        ],
      },
      /classes/,
    ],
    [{ classLevels: [{ name: ' ', levels: 1 }] }, /classLevels\.0\.name/],
    [{ lastLoginAt: 'soon' }, /lastLoginAt/],
    [{ last_login_at: 'soon' }, /last_login_at/],
  ])('%j is refused naming the field', (input, field) => {
    expect(() => profileFromInput(input as never, NOW, false)).toThrow(field)
  })
})
