// What the right-click menus of a request and of a frame offer, and the Export menu: each item
// reads the store and hands text to the shell (copy) or a file (save), then says what it did.

import type { Reply } from '../src/library.js'
import { openMenu } from './components/Menu.js'
import { say, type MenuItem, type PanelContextValue } from './context.js'
import { EXPORT_ACTIONS, runExport, type ExportAction } from './exports.js'

/** The reply as a person reads it: each choice's content, then its refusal and tool calls (name and arguments). */
export function replyText(reply: Reply): string {
  const many = reply.choices.length > 1
  return reply.choices.map((c) => {
    const parts: string[] = []
    if (c.content !== '') parts.push(c.content)
    if (c.refusal !== '') parts.push(`refusal: ${c.refusal}`)
    for (const t of c.toolCalls) parts.push(`${t.name ?? '(no name)'}(${t.arguments})`)
    const text = parts.join('\n\n')
    return many ? `[choice ${c.index}]\n${text}` : text
  }).join('\n\n')
}

async function copy(ctx: PanelContextValue, text: string, what: string): Promise<void> {
  await ctx.shell.copy(text)
  say(ctx.ui, `Copied ${what}`)
}

/** The export actions as menu items (the Export button's menu, and Export… in the right-click menus). */
export function exportItems(ctx: PanelContextValue, id: string): MenuItem[] {
  return EXPORT_ACTIONS.map((a) => ({ label: a.label, action: `export-${a.id}`, title: a.title, run: () => run(ctx, a.id, id) }))
}

/** Items every menu of a request has: its cURL, its reply, its exports. */
function requestItems(ctx: PanelContextValue, id: string, at: MouseEvent): MenuItem[] {
  const { store, ui } = ctx
  const source = () => store.recordings.load(id)
  return [
    {
      label: 'Copy as cURL', action: 'copy-curl',
      run: () => run(ctx, 'curl', id),
    },
    {
      label: 'Copy reply', action: 'copy-reply', title: 'The reply as text: content, refusal and tool calls of each choice',
      run: async () => { const s = await source(); if (s) await copy(ctx, replyText(s.expected), 'the reply') },
    },
    {
      label: 'Copy reply as JSON', action: 'copy-reply-json', title: "Deltascope's Reply object",
      run: async () => { const s = await source(); if (s) await copy(ctx, JSON.stringify(s.expected, null, 2), 'the reply as JSON') },
    },
    {
      label: 'Export…', action: 'export', separator: true, title: 'Fixture, test file, HAR, raw body, JSON Lines',
      // the export actions, in a menu where this one was
      // focus is back where the first menu was opened from (it closed first): it returns there again
      run: () => {
        const back = (at.target as Node | null)?.ownerDocument?.activeElement
        openMenu(ui, at, 'Export', exportItems(ctx, id), undefined, back instanceof HTMLElement ? back : null)
      },
    },
  ]
}

async function run(ctx: PanelContextValue, action: ExportAction, id: string): Promise<void> {
  const source = await ctx.store.recordings.load(id)
  if (source) say(ctx.ui, await runExport(action, source, ctx.shell, ctx.ui.includeCredentials.peek(), ctx.store.redaction.rules.peek()))
}

/** The right-click menu of a request row. */
export function requestMenu(ctx: PanelContextValue, id: string, url: string, at: MouseEvent): MenuItem[] {
  return [
    { label: 'Copy URL', action: 'copy-url', run: () => copy(ctx, url, 'the URL') },
    ...requestItems(ctx, id, at),
  ]
}

/** The right-click menu of a frame of the selected request. */
export function frameMenu(ctx: PanelContextValue, id: string, seq: number, at: MouseEvent): MenuItem[] {
  const frame = () => ctx.store.loadFrame(seq)
  return [
    {
      label: 'Copy raw frame', action: 'copy-raw', title: 'The block as received, without the blank line that ended it',
      run: async () => { const f = await frame(); if (f) await copy(ctx, f.raw, `frame ${seq} as received`) },
    },
    {
      label: 'Copy data', action: 'copy-data', title: "The frame's data payload",
      run: async () => { const f = await frame(); if (f) await copy(ctx, f.data, `frame ${seq}'s data`) },
    },
    ...requestItems(ctx, id, at),
  ]
}
