// Vitest global setup: the standalone page (dist/page) and the extension (dist/chrome,
// dist/firefox) built once, one after the other, before any test file runs. Test files run two
// at a time, and several of them need these builds: built from inside them, two vite builds of
// this project would run at once (Vite refuses that, and both would write the same folders).
// Each test still calls ensure…Built(), which finds the build fresh and returns at once.

import { ensureExtensionBuilt, ensurePageBuilt } from './browser.js'

export default function setup(): void {
  ensurePageBuilt({ quiet: true })
  ensureExtensionBuilt()
}
