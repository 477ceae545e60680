// The one direction of flow, checked on the sources: bytes → frames → deltas → reply → view.
// The core imports nothing outside itself; providers import only the adapter contract
// (src/core/adapters.ts, the adapter types' one home) and a few core helpers; only the library
// face (src/library.ts) imports both, and every other layer reaches them through it
// (src/index.ts, the package's entry, re-exports the face with the debugger). Only the
// extension's shells (src/shells) touch the extension APIs; the panel imports from src only the
// face, the exchange formats and the debugger, never a shell.

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = new URL('../', import.meta.url).pathname

function sources(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(ROOT, dir, name)
    if (statSync(path).isDirectory()) out.push(...sources(relative(ROOT, path)))
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(ROOT, path))
  }
  return out
}

function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!)
}

/** Code only: comments and string literals do not count. */
function code(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, "''")
}

/** The extension's shells: the only code that may touch extension APIs. */
const EXTENSION_SHELLS = /^src\/shells\/(extension|chrome|firefox)\//

describe('layering', () => {
  it('src/core imports nothing outside src/core', () => {
    const offenders: string[] = []
    for (const file of sources('src/core')) {
      for (const spec of imports(file)) if (!spec.startsWith('./')) offenders.push(`${file} imports ${spec}`)
    }
    expect(offenders).toEqual([])
  })

  it('src/providers import only each other, the adapter contract (core/adapters.ts) and the core helpers registry, json-error, json-depth and json-patch', () => {
    const offenders: string[] = []
    for (const file of sources('src/providers')) {
      for (const spec of imports(file)) {
        const ok = spec.startsWith('./') || /^\.\.\/core\/(adapters|registry|json-error|json-depth|json-patch)\.js$/.test(spec)
        if (!ok) offenders.push(`${file} imports ${spec}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('only the library face imports both the core and the providers; everything else imports the face', () => {
    const inner = /(^|\/)(core|providers)\//
    const offenders: string[] = []
    const outside = [...sources('src'), ...sources('panel'), ...sources('demo'), ...sources('bench')]
      .filter((f) => !f.startsWith('src/core/') && !f.startsWith('src/providers/') && f !== 'src/library.ts')
    for (const file of outside) {
      for (const spec of imports(file)) if (inner.test(spec)) offenders.push(`${file} imports ${spec}`)
    }
    expect(offenders).toEqual([])
    const face = imports('src/library.ts')
    expect(face.some((s) => s.startsWith('./core/'))).toBe(true)
    expect(face.some((s) => s.startsWith('./providers/'))).toBe(true)
  })

  it('the panel imports from src only the face (src/library.ts), the exchange formats and the debugger', () => {
    const offenders: string[] = []
    for (const file of sources('panel')) {
      for (const spec of imports(file)) {
        if (/(^|\/)src\//.test(spec) && !/\/src\/(library\.js|exchange\/|debug\/)/.test(spec)) offenders.push(`${file} imports ${spec}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('only the extension\'s shells (src/shells/extension, chrome, firefox) touch chrome.* / browser.* or webextension-polyfill', () => {
    const offenders: string[] = []
    for (const file of [...sources('src'), ...sources('panel')].filter((f) => !EXTENSION_SHELLS.test(f))) {
      if (/\b(chrome|browser)\s*\.\s*[a-z]/.test(code(file))) offenders.push(`${file} uses chrome.* or browser.*`)
      if (imports(file).some((s) => s.includes('webextension-polyfill'))) offenders.push(`${file} imports webextension-polyfill`)
    }
    expect(offenders).toEqual([])
  })

  it('the panel and the exchange formats never import a shell or the CLI', () => {
    const offenders: string[] = []
    for (const file of [...sources('panel'), ...sources('src/exchange')]) {
      for (const spec of imports(file)) if (/\/shells\/|\/cli\//.test(spec)) offenders.push(`${file} imports ${spec}`)
    }
    expect(offenders).toEqual([])
  })

  it('below src, only the shells import the panel: the DevTools ones (to mount it, to implement its shell, to run its store in their worker) and the standalone page', () => {
    // inspected-page.ts and page-answer.ts are the DevTools shell's InspectedPage (its contract is in panel/shell.ts)
    const shells = new Set(['src/shells/extension/panel-main.ts', 'src/shells/extension/devtools-shell.ts', 'src/shells/extension/inspected-page.ts', 'src/shells/extension/page-answer.ts', 'src/shells/extension/devtools-worker.ts'])
    const offenders: string[] = []
    for (const file of sources('src').filter((f) => !shells.has(f) && !f.startsWith('src/shells/page/'))) {
      for (const spec of imports(file)) if (/(^|\/)panel\//.test(spec)) offenders.push(`${file} imports ${spec}`)
    }
    expect(offenders).toEqual([])
  })
})
