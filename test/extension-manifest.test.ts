// What each built extension package asks the user for at install: the least it needs, as each
// permission is a power over every page the user opens (docs/extension.md, "What each
// permission is for"). The packages are built by the test global setup (test/support/builds.ts) with
// vite.config.ext.ts.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHROME_DIST, ensureExtensionBuilt } from './support/browser.js'

const built = (dir: string): Record<string, unknown> => {
  ensureExtensionBuilt()
  return JSON.parse(readFileSync(join(CHROME_DIST, '..', dir, 'manifest.json'), 'utf8')) as Record<string, unknown>
}
const grants = (m: Record<string, unknown>) => ({
  permissions: m['permissions'] ?? null,
  optional_permissions: m['optional_permissions'] ?? null,
  host_permissions: m['host_permissions'] ?? null,
  optional_host_permissions: m['optional_host_permissions'] ?? null,
  content_scripts: m['content_scripts'] ?? null,
})

const VERSION = (JSON.parse(readFileSync(join(CHROME_DIST, '../../package.json'), 'utf8')) as { version: string }).version

/** The extension pages' CSP (vite.config.ext.ts): stricter than MV3's default, which leaves images, fetches and frames open. */
const CSP = "default-src 'self'; script-src 'self'; object-src 'none'; img-src 'self' data:; connect-src 'self'; style-src 'self'; frame-src 'none'; base-uri 'none'; form-action 'none'"

describe('the built extension packages', () => {
  it('every package carries package.json\'s version and the strict extension-pages CSP', () => {
    for (const dir of ['chrome', 'chrome-live', 'firefox']) {
      const m = built(dir)
      expect(m['version'], dir).toBe(VERSION)
      expect(m['content_security_policy'], dir).toEqual({ extension_pages: CSP })
    }
  })

  it('dist/chrome asks for nothing: no permission, no host, no content script (no install warning)', () => {
    const m = built('chrome')
    expect(m['name']).toBe('Deltascope')
    expect(grants(m)).toEqual({ permissions: null, optional_permissions: null, host_permissions: null, optional_host_permissions: null, content_scripts: null })
  })

  it('dist/chrome-live asks for debugger alone, and is otherwise the same package', () => {
    const live = built('chrome-live')
    const base = built('chrome')
    expect(live['name']).toBe('Deltascope Live')
    expect(grants(live)).toEqual({ permissions: ['debugger'], optional_permissions: null, host_permissions: null, optional_host_permissions: null, content_scripts: null })
    expect(String(live['description']).length).toBeLessThanOrEqual(132)
    const { name: _n, description: _d, permissions: _p, ...sameLive } = live
    const { name: _n2, description: _d2, ...sameBase } = base
    expect(sameLive).toEqual(sameBase)
    // the same code: the service worker and the devtools page are the baseline's files
    for (const file of ['service-worker-loader.js', 'src/shells/extension/devtools.html', 'src/shells/extension/panel.html']) {
      expect(readFileSync(join(CHROME_DIST, '..', 'chrome-live', file), 'utf8'), file).toBe(readFileSync(join(CHROME_DIST, file), 'utf8'))
    }
  })

  it('dist/firefox asks for webRequest filtering (no install line of its own) and the host permission live capture reads through', () => {
    expect(grants(built('firefox'))).toEqual({
      permissions: ['webRequest', 'webRequestBlocking', 'webRequestFilterResponse'],
      optional_permissions: null,
      host_permissions: ['<all_urls>'],
      optional_host_permissions: null,
      content_scripts: null,
    })
  })
})
