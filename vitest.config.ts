import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // the CLI bundled once, for the CLI tests to spawn with plain node
    globalSetup: ['test/support/cli-bundle.ts'],
    // Two test files at a time: vitest's default on a 2-core machine is one, and the browser
    // suites spend most of their time waiting on the browser, not on the CPU.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
