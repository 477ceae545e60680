import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // the CLI bundled once, for the CLI tests to spawn with plain node
    globalSetup: ['test/support/cli-bundle.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
})
