// Where the browser tests save their screenshots. By default a folder in the system's temporary
// directory (overwritten on each run), so that `npm test` leaves the working tree as it found
// it. The README's pictures are refreshed on purpose with `npm run screenshots`, which sets
// DELTASCOPE_SCREENSHOTS=docs/screenshots (a path relative to the repository, or absolute).

import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

/** The folder screenshots go to: DELTASCOPE_SCREENSHOTS, else <tmpdir>/deltascope-screenshots. */
export function screenshotDir(): string {
  const wanted = process.env['DELTASCOPE_SCREENSHOTS']
  return wanted ? resolve(ROOT, wanted) : join(tmpdir(), 'deltascope-screenshots')
}

/** The path to save screenshot `name` (e.g. "panel.png") at, its folder created. */
export function screenshotPath(name: string): string {
  const dir = screenshotDir()
  mkdirSync(dir, { recursive: true })
  return join(dir, name)
}
