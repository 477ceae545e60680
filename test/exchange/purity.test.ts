// src/exchange runs in the DevTools panel, the standalone page and Node: no DOM, no
// browser-extension API, no Node API. Checked twice: by reading the sources, and by
// compiling them against the bare ES2022 library with no ambient types (as tsconfig.core.json).

import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DIR = join(ROOT, 'src', 'exchange')
const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'))
const FORBIDDEN = new Set(['window', 'document', 'navigator', 'chrome', 'browser', 'Buffer', 'process', 'require', 'localStorage', 'XMLHttpRequest', 'fetch', 'btoa', 'atob', 'self', 'location'])

describe('src/exchange is pure', () => {
  it('has the files of the brief', () => {
    for (const f of ['redact.ts', 'fixture.ts', 'har.ts', 'curl.ts', 'raw.ts', 'testfile.ts', 'import.ts']) expect(files).toContain(f)
  })

  for (const file of files) {
    it(`${file}: imports only the library face and its siblings; no platform globals`, () => {
      expect(problemsOf(file, readFileSync(join(DIR, file), 'utf8'))).toEqual([])
    })
  }

  it('the check itself catches what it should', () => {
    const bad = [
      "import { readFileSync } from 'node:fs'",
      "import { CapturedRequest } from '../../panel/shell.js'",
      "const a = window.location; const b = Buffer.from('x'); const c = btoa('x'); const d = await import('./x.js')",
      "const ok = { window: 1 }.window; const s = 'document.body'",
    ].join('\n')
    expect(problemsOf('bad.ts', bad)).toEqual([
      'imports node:fs', 'imports ../../panel/shell.js', 'uses window (line 3)', 'uses Buffer (line 3)', 'uses btoa (line 3)', 'dynamic import()',
    ])
  })

  it('compiles against ES2022 alone, with no DOM and no @types', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'deltascope-exchange-'))
    try {
      writeFileSync(join(tmp, 'tsconfig.json'), JSON.stringify({
        extends: join(ROOT, 'tsconfig.base.json'),
        compilerOptions: { lib: ['ES2022'], types: [], noEmit: true },
        files: files.map((f) => join(DIR, f)),
      }))
      const out = await new Promise<string>((resolve) => {
        execFile(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(tmp, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' }, (err, stdout, stderr) => {
          resolve(err ? `exit ${String(err.code)}\n${stdout}${stderr}` : stdout + stderr)
        })
      })
      expect(out).toBe('')
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  }, 180_000)
})

function problemsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const problems: string[] = []
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const spec = node.moduleSpecifier.text
      if (!/^(\.\/[a-z-]+\.js|\.\.\/library\.js)$/.test(spec)) problems.push(`imports ${spec}`)
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) problems.push('dynamic import()')
    if (ts.isIdentifier(node) && FORBIDDEN.has(node.text)) {
      const p = node.parent
      const isMemberName = (ts.isPropertyAccessExpression(p) && p.name === node) || (ts.isPropertyAssignment(p) && p.name === node) || (ts.isPropertySignature(p) && p.name === node)
      if (!isMemberName) problems.push(`uses ${node.text} (line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1})`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return problems
}
