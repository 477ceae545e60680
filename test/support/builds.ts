// Vitest global setup. The standalone page (dist/page) and the extension (dist/chrome,
// dist/chrome-live, dist/firefox) are no longer built here, before every run: the suites that
// need them call ensurePageBuilt() / ensureExtensionBuilt() (test/support/browser.ts), which
// build on first use, one build at a time across the test processes, so a unit run starts
// without a build. Here only DELTASCOPE_REBUILD=1 is honoured: the builds are marked stale
// once, and the first suite that needs each rebuilds it.

import { markBuildsStale } from './browser.js'

export default function setup(): void {
  if (process.env['DELTASCOPE_REBUILD'] === '1') markBuildsStale()
}
