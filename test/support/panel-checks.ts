// The reply check both browsers' end-to-end tests make: what the panel shows for a selected
// request (read from its DOM over CDP in Chromium, through the probe in Firefox) must be exactly
// the Reply the core computes from the same bytes.

import { expect } from 'vitest'
import { merge, type Reply } from '../../src/index.js'

export interface ShownTool { name: string; id: string; args: string | null; pretty: string | null }
export interface ShownChoice { index: number; content: string; reasoning: string; finishReason: string; tools: ShownTool[] }

/** The selected request as the panel shows it: its row in the list and its reply. */
export interface ShownReply {
  /** The row's data-state. */
  state: string | null
  /** The frame count above the frames. */
  frameCount: number
  /** The frames and broken frames the list row counts. */
  rowFrames: number
  rowBroken: number
  choices: ShownChoice[]
  /** The frames the problem list names as broken. */
  frameErrors: number[]
}

/** The panel shows `expected`, finished: every count, choice, text, finish reason and tool call. */
export function expectPanelShows(shown: ShownReply, expected: Reply, label: string): void {
  expect(shown.state, `${label}: state`).toBe('finished')
  expect(shown.frameCount, `${label}: frame count`).toBe(expected.frameCount)
  expect(shown.rowFrames, `${label}: frames in the list row`).toBe(expected.frameCount)
  expect(shown.rowBroken, `${label}: broken count in the list row`).toBe(expected.errors.length)
  expect(shown.frameErrors, `${label}: broken frames`).toEqual(expected.errors.map((e) => e.frame))
  expect(shown.choices.map((c) => c.index), `${label}: choices`).toEqual(expected.choices.map((c) => c.index))
  expected.choices.forEach((c, i) => {
    const s = shown.choices[i]!
    expect(s.content, `${label}: content of choice ${c.index}`).toBe(c.content)
    expect(s.reasoning, `${label}: reasoning of choice ${c.index}`).toBe(c.reasoning)
    expect(s.finishReason, `${label}: finish reason of choice ${c.index}`).toBe(c.finishReason ?? '')
    expect(s.tools.length, `${label}: tool calls of choice ${c.index}`).toBe(c.toolCalls.length)
    c.toolCalls.forEach((t, k) => {
      const st = s.tools[k]!
      expect(st.name, `${label}: tool ${k} name`).toBe(t.name ?? '(no name)')
      expect(st.id, `${label}: tool ${k} id`).toBe(t.id ?? '(no id)')
      if (st.args !== null) expect(st.args, `${label}: tool ${k} arguments`).toBe(t.arguments)
      else expect(JSON.parse(st.pretty ?? 'null'), `${label}: tool ${k} arguments`).toEqual(t.parsedArguments)
    })
  })
}

/** The Reply the core computes from the bytes `url` answers a POST with. */
export async function expectedReply(url: string, contentType: string): Promise<Reply> {
  const res = await fetch(url, { method: 'POST', body: '{}' })
  return merge(new Uint8Array(await res.arrayBuffer()), { contentType, url })
}
