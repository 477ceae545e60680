// Builds the browser extension: `npm run build:ext` → dist/chrome/ (unpacked, load it in
// chrome://extensions) and dist/firefox/ (the same files with a Firefox manifest).

import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin'
import preact from '@preact/preset-vite'
import { defineConfig, type Plugin } from 'vite'
import manifest from './manifest.json' with { type: 'json' }

const ROOT = fileURLToPath(new URL('.', import.meta.url))
const CHROME_OUT = resolve(ROOT, 'dist/chrome')
const FIREFOX_OUT = resolve(ROOT, 'dist/firefox')
export const GECKO_ID = 'deltascope@deltascope.dev'

/**
 * dist/firefox: Firefox MV3 wants `background.scripts` (no service worker) and a gecko id,
 * and has no `debugger` API (live capture there would need webRequest.filterResponseData).
 */
function firefoxVariant(): Plugin {
  return {
    name: 'deltascope:firefox-variant',
    apply: 'build',
    closeBundle() {
      rmSync(FIREFOX_OUT, { recursive: true, force: true })
      cpSync(CHROME_OUT, FIREFOX_OUT, { recursive: true })
      const path = resolve(FIREFOX_OUT, 'manifest.json')
      const m = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
      const bg = m['background'] as { service_worker?: string; type?: string } | undefined
      if (bg?.service_worker) m['background'] = { scripts: [bg.service_worker], type: bg.type ?? 'module' }
      m['browser_specific_settings'] = { gecko: { id: GECKO_ID, strict_min_version: '128.0' } }
      delete m['minimum_chrome_version']
      for (const key of ['permissions', 'optional_permissions']) {
        const list = ((m[key] as string[] | undefined) ?? []).filter((p) => p !== 'debugger')
        if (list.length > 0) m[key] = list
        else delete m[key]
      }
      const wars = m['web_accessible_resources'] as Array<Record<string, unknown>> | undefined
      for (const war of wars ?? []) delete war['use_dynamic_url']
      writeFileSync(path, JSON.stringify(m, null, 2) + '\n')
    },
  }
}

export default defineConfig({
  root: ROOT,
  plugins: [preact(), crx({ manifest: manifest as ManifestV3Export }), firefoxVariant()],
  build: {
    outDir: CHROME_OUT,
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      // The panel page is only named in JS (devtools.panels.create): list it, or it is left out.
      input: { panel: resolve(ROOT, 'extension/panel.html') },
    },
  },
})
