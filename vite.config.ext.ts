// Builds the browser extension: `npm run build:ext` → dist/chrome/ and dist/chrome-live/ (load
// one unpacked in chrome://extensions) and dist/firefox/ (about:debugging → Load Temporary
// Add-on, or `web-ext run`). Two bundles from the same sources, differing in their manifest and
// their background: Chrome's service worker holds live.ts (chrome.debugger), Firefox's
// background script holds live-firefox.ts (webRequest.filterResponseData); neither ships the
// other's browser-only API. The devtools page and the panel are the same code in both.
//
// Least privilege (README "What each permission is for"): dist/chrome asks for no permission
// at all (the devtools network API needs none), so installing it shows no warning; it captures
// every stream when it finishes. Live capture needs `debugger`, which Chromium refuses as an
// optional permission (dropped from optional_permissions; permissions.request then fails with
// "Only permissions specified in the manifest may be requested": seen in Chromium 156), so it
// cannot be asked for when the user turns Live on. It ships as a second package instead,
// dist/chrome-live: the same files, its manifest named "Deltascope Live" with `debugger`.
//
// DELTASCOPE_BROWSER=firefox builds the Firefox bundle alone. With DELTASCOPE_PROBE_URL (and
// DELTASCOPE_FIREFOX_OUT, then required) it is the Firefox test's own build, whose panel
// reports what it shows to that loopback server (src/shells/extension/test-probe.ts), and whose live
// capture re-checks its permission every 500 ms instead of 10 s (the test shortens Firefox's
// idle timeout to match, so it also proves live capture outlives it).
//
// `npm run lint:firefox` (web-ext lint on dist/firefox) and `npm run package` (web-ext lint on
// the .xpi's files) report 0 errors and 4 warnings, which stay: UNSAFE_VAR_ASSIGNMENT twice in
// the panel chunk and twice in the store worker's. "Unsafe assignment to innerHTML" is Preact's
// own diff, which assigns innerHTML for the `dangerouslySetInnerHTML` prop; Deltascope never
// passes that prop (captured text is rendered as text only, and a test scans the UI sources for
// innerHTML), so the line never runs. "Unsafe call to …document().write" is micromark's parser
// (`parse().document().write(chunks)`, its tokenizer, not the DOM's document.write). Neither is
// ours to patch.
//
// Releases (scripts/package.ts): package.json's version is stamped into every manifest here;
// source maps are written only with DELTASCOPE_SOURCEMAPS=1 (`npm run package -- --sourcemaps`).

import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin'
import preact from '@preact/preset-vite'
import { build, defineConfig, type InlineConfig, type Plugin } from 'vite'
import manifest from './manifest.json' with { type: 'json' }
import pkg from './package.json' with { type: 'json' }

const ROOT = fileURLToPath(new URL('.', import.meta.url))
const CHROME_OUT = resolve(ROOT, 'dist/chrome')
const CHROME_LIVE_OUT = resolve(ROOT, 'dist/chrome-live')
const FIREFOX_OUT = resolve(ROOT, 'dist/firefox')
export const GECKO_ID = 'deltascope@deltascope.dev'

/**
 * One version: package.json's, stamped into every built manifest (manifest.json carries none,
 * so there is no second copy to forget). Chrome and Firefox want 1-4 dot-separated integers.
 */
export const VERSION: string = pkg.version
if (!/^\d+(\.\d+){0,3}$/.test(VERSION)) throw new Error(`package.json's version ${VERSION} is not a manifest version (1-4 integers)`)

/**
 * The extension pages' Content Security Policy, stricter than MV3's default (which is
 * `script-src 'self'; object-src 'self'` and leaves images, fetches, frames and styles open):
 * the panel loads its own scripts, styles and worker only, shows no remote image (a rendered
 * Markdown reference with a remote image stays blank rather than calling home), and talks to
 * no server (captured bodies come from the devtools / debugger APIs, not from fetch). Preact's
 * style props write through the CSSOM (element.style), which style-src does not govern.
 * `probeOrigin`: the Firefox test build's loopback server (src/shells/extension/test-probe.ts), which
 * its panel must reach; shipped builds have none.
 */
export function extensionPagesCsp(probeOrigin = ''): string {
  const connect = probeOrigin === '' ? "'self'" : `'self' ${probeOrigin}`
  return [
    "default-src 'self'",
    "script-src 'self'",
    "object-src 'none'",
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "style-src 'self'",
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
}

function stamped(probeOrigin = ''): Record<string, unknown> {
  return { ...manifest, version: VERSION, content_security_policy: { extension_pages: extensionPagesCsp(probeOrigin) } }
}

/**
 * The Firefox manifest: `background.scripts` (Firefox MV3 has no service worker), a gecko id,
 * and live capture's permissions (Firefox's only; Chrome's Live package has `debugger`):
 * webRequest + webRequestBlocking + webRequestFilterResponse and the host permission they
 * need. Firefox lets the user withhold MV3 host permissions; live-firefox.ts then says so.
 * `data_collection_permissions` is required of new Firefox add-ons (Deltascope collects
 * nothing); it needs Firefox 140 and Firefox for Android 142, or lint warns.
 */
export function firefoxManifest(probeOrigin = ''): Record<string, unknown> {
  const { minimum_chrome_version: _chrome, background: _background, ...common } = stamped(probeOrigin)
  return {
    ...common,
    background: { scripts: ['src/shells/firefox/background.ts'], type: 'module' },
    permissions: ['webRequest', 'webRequestBlocking', 'webRequestFilterResponse'],
    host_permissions: ['<all_urls>'],
    browser_specific_settings: {
      gecko: { id: GECKO_ID, strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
      gecko_android: { strict_min_version: '142.0' },
    },
  }
}

/** The permissions of Chrome's baseline package: none (manifest.json declares none). */
export function chromeManifest(): Record<string, unknown> {
  return stamped()
}

/**
 * Chrome's Live package: the baseline's manifest, renamed, with the one permission live capture
 * needs (chrome.debugger, which implies access to every page's content and network: Chrome
 * warns "Read and change all your data on all websites" at install).
 */
export function chromeLiveManifest(built: Record<string, unknown>): Record<string, unknown> {
  return {
    ...built,
    name: 'Deltascope Live',
    // Chrome's limit is 132 characters
    description: 'Shows streamed LLM replies (SSE / NDJSON) frame by frame while they arrive (live capture: the debugger permission).',
    permissions: ['debugger'],
  }
}

/** After the Chrome bundle, the Live package: a copy of it whose manifest adds `debugger`. */
function alsoChromeLive(): Plugin {
  return {
    name: 'deltascope:chrome-live',
    apply: 'build',
    // after every other plugin has finished writing dist/chrome
    closeBundle: { order: 'post', sequential: true, handler() {
      rmSync(CHROME_LIVE_OUT, { recursive: true, force: true })
      cpSync(CHROME_OUT, CHROME_LIVE_OUT, { recursive: true })
      const path = join(CHROME_LIVE_OUT, 'manifest.json')
      const built = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
      writeFileSync(path, JSON.stringify(chromeLiveManifest(built), null, 2))
    } },
  }
}

/** Live capture's permission watch in Firefox (live-firefox.ts); the test build runs it often. */
const LIVE_WATCH_MS = 10_000
const TEST_LIVE_WATCH_MS = 500

/**
 * decode-named-character-reference (micromark's, and the Markdown renderer's, for `&copy;`)
 * picks, under the `browser` condition, a version that decodes by assigning innerHTML to an
 * element it creates when loaded: `document` does not exist in the panel's store worker, where
 * the rendered comparison runs, so loading it there throws. Its plain version (a table of
 * the names) works everywhere and touches no DOM.
 */
export const PLAIN_ENTITY_DECODER = {
  find: /^decode-named-character-reference$/,
  replacement: resolve(ROOT, 'node_modules/decode-named-character-reference/index.js'),
}

function common(outDir: string, probeUrl: string): InlineConfig {
  return {
    root: ROOT,
    resolve: { alias: [PLAIN_ENTITY_DECODER] },
    define: {
      __DELTASCOPE_PROBE__: JSON.stringify(probeUrl),
      __DELTASCOPE_LIVE_WATCH_MS__: JSON.stringify(probeUrl === '' ? LIVE_WATCH_MS : TEST_LIVE_WATCH_MS),
    },
    build: {
      outDir,
      emptyOutDir: true,
      // source maps only when asked (`npm run package -- --sourcemaps`): store packages ship none
      sourcemap: process.env['DELTASCOPE_SOURCEMAPS'] === '1',
      rollupOptions: {
        // The panel page is only named in JS (devtools.panels.create): list it, or it is left out.
        input: { panel: resolve(ROOT, 'src/shells/extension/panel.html') },
      },
    },
  }
}

function firefoxConfig(outDir: string, probeUrl: string): InlineConfig {
  const base = common(outDir, probeUrl)
  return {
    ...base,
    configFile: false,
    plugins: [preact(), crx({ manifest: firefoxManifest(probeUrl === '' ? '' : new URL(probeUrl).origin) as unknown as ManifestV3Export, browser: 'firefox' })],
  }
}

/** After the Chrome bundle, the Firefox one (a second build with its own manifest). */
function alsoFirefox(): Plugin {
  let logLevel: InlineConfig['logLevel']
  return {
    name: 'deltascope:firefox-build',
    apply: 'build',
    configResolved(config) {
      logLevel = config.logLevel
    },
    async closeBundle() {
      await build({ ...firefoxConfig(FIREFOX_OUT, ''), logLevel })
    },
  }
}

function config(): InlineConfig {
  const probeUrl = process.env['DELTASCOPE_PROBE_URL'] ?? ''
  if (process.env['DELTASCOPE_BROWSER'] === 'firefox') {
    const out = process.env['DELTASCOPE_FIREFOX_OUT'] ? resolve(process.env['DELTASCOPE_FIREFOX_OUT']) : FIREFOX_OUT
    if (probeUrl !== '' && out === FIREFOX_OUT) throw new Error('a probe build (DELTASCOPE_PROBE_URL) needs its own DELTASCOPE_FIREFOX_OUT, not dist/firefox')
    return firefoxConfig(out, probeUrl)
  }
  if (probeUrl !== '') throw new Error('DELTASCOPE_PROBE_URL is for the Firefox test build (DELTASCOPE_BROWSER=firefox)')
  return {
    ...common(CHROME_OUT, ''),
    plugins: [preact(), crx({ manifest: chromeManifest() as unknown as ManifestV3Export }), alsoChromeLive(), alsoFirefox()],
  }
}

export default defineConfig(config())
