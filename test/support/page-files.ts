// A file opened in the standalone page as a user does (its file input), then its row selected.

import type { Page } from 'playwright-core'
import { expect } from 'vitest'

/** Opens `name` through the page's file input, waits for its one new row and selects it. */
export async function openFileInPage(page: Page, name: string, buffer: Buffer, mimeType = 'text/event-stream'): Promise<void> {
  const rows = page.locator('[data-testid="request-row"]')
  const before = await rows.count()
  await page.locator('[data-testid="file-input"]').setInputFiles({ name, mimeType, buffer })
  await expect.poll(() => rows.count()).toBe(before + 1)
  const row = page.locator(`[data-testid="request-row"][title="${name}"]`)
  await row.click()
  await expect.poll(() => row.getAttribute('aria-selected')).toBe('true')
}
