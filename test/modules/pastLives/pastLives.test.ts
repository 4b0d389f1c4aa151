// Past lives at a glance over HTTP (GET /characters/{id}/past-lives and GET /past-lives, on the
// plugin API and the website's): numbers from lives recorded through reincarnation and a live
// snapshot, worked by hand; another account's character is 404; no credential is 401; a read
// writes nothing.
import { describe, expect, test } from 'bun:test'
import { insertCharacter, ok, refused, storedLives, testApp } from '../../helpers'

async function setup() {
  const h = testApp()
  const token = await h.userWithToken('alice')
  const brom = insertCharacter(h.db, 'alice', {
    givenName: 'Brom',
    race: 'Dwarf',
    server: 'Thrane',
    classes: [{ name: 'Fighter', levels: 20 }],
  })
  const lidda = insertCharacter(h.db, 'alice', {
    givenName: 'Lidda',
    race: 'Halfling',
    server: 'Cannith',
    classes: [{ name: 'Rogue', levels: 20 }],
  })
  return { ...h, token, brom, lidda, me: h.plugin(token).characters({ id: brom.id }) }
}

/** Brom: a racial reincarnation out of a Dwarf Fighter, a heroic one out of a Fighter, then a Wizard life in game. */
async function seedBrom({ me }: Awaited<ReturnType<typeof setup>>) {
  // Life 1: Dwarf Fighter 20 -> Dwarf 1.
  ok(await me.lives.reincarnate.post({ grantRacial: true }))
  // Life 2 is a Fighter again (the snapshot says so) -> Fighter 1.
  ok(await me.live.put({ life: { race: 'Dwarf' }, build: { levels: [{ class: 'Fighter' }] } }))
  ok(await me.lives.reincarnate.post({ grantHeroic: true }))
  // Life 3, in game now: a Wizard 20 whose snapshot knows two Wizard lives from before the plugin,
  // and an epic past life; it does not list the Dwarf one.
  ok(
    await me.live.put({
      life: {
        race: 'Dwarf',
        specialFeats: [
          { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 2 },
          { name: 'Past Life: Wizard', type: 'HeroicPastLife', stacks: 2 },
          { name: 'Past Life: Arcane Sphere: Arcane Alacrity', type: 'EpicPastLife', stacks: 1 },
          { name: 'Total Favor Rewards', type: 'Favor', stacks: 3 },
        ],
      },
      build: { levels: Array.from({ length: 20 }, () => ({ class: 'Wizard' })) },
    }),
  )
}

describe('GET /characters/{id}/past-lives', () => {
  test('history and snapshot together, with totals and what the next reincarnation grants', async () => {
    const t = await setup()
    await seedBrom(t)
    const body = ok(await t.me['past-lives'].get())
    expect(body.character).toEqual({ id: t.brom.id, name: 'Brom' })
    expect(body.lives).toBe(3)
    expect(body.snapshotUpdatedAt).toBe('2026-11-21T12:00:00.000Z')
    const heroic = Object.fromEntries(body.heroic.filter((e) => e.count > 0).map((e) => [e.class, e.count]))
    // Fighter: history 1 (life 3 carries the grant), snapshot 2 -> 2. Wizard: the snapshot's 2
    // (the history's copy of it is the same life). Dwarf: the history's 1 (life 2 has it),
    // though the snapshot, and so life 3, no longer list it.
    expect(heroic).toEqual({ Fighter: 2, Wizard: 2 })
    expect(body.racial.find((e) => e.race === 'Dwarf')?.count).toBe(1)
    expect(body.epic.find((s) => s.sphere === 'Arcane')).toMatchObject({ count: 1, max: 15 })
    expect(body.heroic).toHaveLength(25)
    expect(body.totals).toEqual({ heroic: 4, racial: 1, iconic: 0, epic: 1, all: 6 })
    expect(body.max).toEqual({ heroic: 75, racial: 48, iconic: 33, epic: 54, all: 210 })
    expect(body.unlisted).toBe(0)
    // Out of a Dwarf Wizard 20: Wizard 2 -> 3 (heroic), Dwarf 1 -> 2 (racial), or one of the 18
    // epic past lives (Arcane Alacrity 1 -> 2 among them).
    const next = body.nextReincarnation
    expect([next.race, next.dominantClass]).toEqual(['Dwarf', 'Wizard'])
    const grants = (kind: string) =>
      next.options.find((o) => o.kind === kind)?.grants.map((g) => `${g.name} ${g.from}->${g.to}`)
    expect(grants('heroic')).toEqual(['Wizard 2->3'])
    expect(grants('racial')).toEqual(['Dwarf 1->2'])
    expect(grants('epic')).toHaveLength(18)
    expect(grants('epic')).toContain('Arcane Alacrity 1->2')
  })

  test('the website answers the same at /api', async () => {
    const t = await setup()
    await seedBrom(t)
    const cookie = await t.signIn('alice')
    const web = ok(await t.web(cookie).characters({ id: t.brom.id })['past-lives'].get())
    expect(web).toEqual(ok(await t.me['past-lives'].get()))
  })

  test('a character never reincarnated, lives never opened: life 1 from its profile, and nothing written', async () => {
    const t = await setup()
    const body = ok(await t.plugin(t.token).characters({ id: t.lidda.id })['past-lives'].get())
    expect(body.lives).toBe(1)
    expect(body.snapshotUpdatedAt).toBeNull()
    expect(body.totals.all).toBe(0)
    expect([body.nextReincarnation.race, body.nextReincarnation.dominantClass]).toEqual(['Halfling', 'Rogue'])
    expect(storedLives(t.db, t.lidda.id)).toHaveLength(0)
  })

  test("another account's character is 404, like one that does not exist; without a credential 401", async () => {
    const t = await setup()
    const bob = await t.userWithToken('bob')
    refused(await t.plugin(bob).characters({ id: t.brom.id })['past-lives'].get(), 404)
    refused(await t.plugin(bob).characters({ id: 999_999 })['past-lives'].get(), 404)
    await t.userWithToken('carol')
    const carol = await t.signIn('carol')
    refused(await t.web(carol).characters({ id: t.brom.id })['past-lives'].get(), 404)
    refused(await t.api.plugin.characters({ id: t.brom.id })['past-lives'].get(), 401)
    refused(await t.api.characters({ id: t.brom.id })['past-lives'].get(), 401)
  })
})

describe('GET /past-lives', () => {
  test("the account's characters with their totals, and each past life summed over them", async () => {
    const t = await setup()
    await seedBrom(t)
    const lidda = t.plugin(t.token).characters({ id: t.lidda.id })
    ok(await lidda.lives.reincarnate.post({ grantHeroic: true }))
    ok(
      await lidda.live.partial.put({
        pastLives: [
          { name: 'Past Life: Rogue', type: 'HeroicPastLife', stacks: 1 },
          { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 1 },
          { name: 'Past Life: Halfling', type: 'RacialPastLife', stacks: 1 },
        ],
      }),
    )
    const body = ok(await t.plugin(t.token)['past-lives'].get())
    expect(body.characters).toEqual([
      {
        id: t.brom.id,
        name: 'Brom',
        server: 'Thrane',
        lives: 3,
        totals: { heroic: 4, racial: 1, iconic: 0, epic: 1, all: 6 },
        max: { heroic: 75, racial: 48, iconic: 33, epic: 54, all: 210 },
      },
      {
        id: t.lidda.id,
        name: 'Lidda',
        server: 'Cannith',
        lives: 2,
        totals: { heroic: 2, racial: 1, iconic: 0, epic: 0, all: 3 },
        max: { heroic: 75, racial: 48, iconic: 33, epic: 54, all: 210 },
      },
    ])
    const count = (cls: string) => body.heroic.find((e) => e.class === cls)?.count
    // Fighter 2 + 1, Wizard 2 + 0, Rogue 0 + 1.
    expect([count('Fighter'), count('Wizard'), count('Rogue')]).toEqual([3, 2, 1])
    expect(body.racial.filter((e) => e.count > 0).map((e) => [e.race, e.count])).toEqual([
      ['Dwarf', 1],
      ['Halfling', 1],
    ])
    expect(body.totals).toEqual({ heroic: 6, racial: 2, iconic: 0, epic: 1, all: 9 })
    expect(body.max.all).toBe(420)

    // Bob sees only his own (none), and the website answers alice the same.
    const bob = await t.userWithToken('bob')
    const empty = ok(await t.plugin(bob)['past-lives'].get())
    expect(empty.characters).toEqual([])
    expect(empty.totals.all).toBe(0)
    const cookie = await t.signIn('alice')
    expect(ok(await t.web(cookie)['past-lives'].get())).toEqual(body)
  })

  test('without a credential: 401 on both APIs', async () => {
    const t = await setup()
    refused(await t.api.plugin['past-lives'].get(), 401)
    refused(await t.api['past-lives'].get(), 401)
  })
})
