import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // before the test files run: the CLI bundle (the CLI tests spawn it with plain node); the
    // page and the extension are built on demand by the suites that use them (builds.ts)
    globalSetup: ['test/support/cli-bundle.ts', 'test/support/builds.ts'],
    // Two test files at a time: vitest's default on a 2-core machine is one, and the browser
    // suites spend most of their time waiting on the browser, not on the CPU.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
