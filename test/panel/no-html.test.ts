// Captured text is untrusted: the panel renders it as text only. No code path may turn a
// string into markup or code.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const PANEL = fileURLToPath(new URL('../../panel/', import.meta.url))
const FORBIDDEN = /innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|document\.write|\beval\s*\(|new Function\s*\(|setTimeout\(\s*['"`]/

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.(ts|tsx)$/.test(name) ? [path] : []
  })
}

it('the panel never builds markup or code from strings', () => {
  const found = files(PANEL).flatMap((f) =>
    readFileSync(f, 'utf8').split('\n').map((line, i) => [f, i + 1, line] as const).filter(([, , line]) => FORBIDDEN.test(line)))
  expect(found).toEqual([])
})
