// No module of src/ imports itself round a circle (type imports included: they tie the layers
// together as much as values do). The same check as `madge --circular`, in-house: madge took 40 s
// over src/ on this machine, this takes a few milliseconds, and it sits in the fast tier.
import { expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const SRC = join(import.meta.dir, '..', 'src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'dist' || name === 'node_modules' ? [] : sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** The relative modules a file imports or re-exports (statically, `import type` included). */
function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const text = readFileSync(file, 'utf8')
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/gm)].map(
    (m) => m[1] as string,
  )
  return specifiers.flatMap((specifier) => {
    const base = resolve(dirname(file), specifier)
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((path) =>
      known.has(path),
    )
    return found ? [found] : []
  })
}

/** Every circle of the import graph, each once, as the files round it. */
function circles(graph: ReadonlyMap<string, string[]>): string[][] {
  const found = new Map<string, string[]>()
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string) => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const circle = path.slice(path.indexOf(next))
        // One key per circle, whichever file it was entered by.
        const key = [...circle].sort().join('\n')
        if (!found.has(key)) found.set(key, circle)
      } else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return [...found.values()]
}

test('no import circle in src/', () => {
  const files = sourceFiles(SRC)
  const known = new Set(files)
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]))
  expect(files.length).toBeGreaterThan(200)
  expect([...graph.values()].flat().length).toBeGreaterThan(500)
  const named = circles(graph).map((circle) => circle.map((file) => relative(SRC, file)).join(' > '))
  expect(named).toEqual([])
})

test('the check finds a circle when there is one', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a', 'd']],
    ['d', []],
  ])
  expect(circles(graph)).toEqual([['a', 'b', 'c']])
})
