// Constants vite.config.ext.ts defines at build time.

/**
 * The loopback test server the panel reports to (test/e2e/firefox.test.ts), set only in the
 * Firefox test's own build; '' in every shipped build, where the probe is left out.
 */
declare const __DELTASCOPE_PROBE__: string

/**
 * How often Firefox's live capture re-checks its host permission, which also keeps the event
 * page awake (src/shells/firefox/live.ts): 10 s, shorter in the Firefox test's build.
 */
declare const __DELTASCOPE_LIVE_WATCH_MS__: number
