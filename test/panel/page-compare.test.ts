// "Compare with the page" on the panel's side: readSettled waits for the page's element to
// settle (with a clock the test moves, so nothing here is timed), the store compares a page's
// text with a request ('compare' against { page }) and keeps a row's verdict ('page-verdict').

import { describe, expect, it } from 'vitest'
import { readSettled, SETTLE_MAX_MS } from '../../panel/page-compare.js'
import type { InspectedPage, PageElement, PageQuery } from '../../panel/shell.js'
import { applyEvent, createPanelStore } from '../../panel/store/index.js'
import { body, DELTAS, PAGE_TEXT } from '../debug/rendered-support.js'
import { requestEvent } from '../support/requests.js'

const T0 = 1_754_000_000_000

function element(digest: string, over: Partial<PageElement> = {}): PageElement {
  return { found: true, selector: '#chat > div.md', count: 2, index: 1, length: 10, digest, rect: { x: 0, y: 0, width: 10, height: 10 }, ...over }
}

/** A page whose probes answer `digests` in turn (the last one from then on); each probe moves the clock 100 ms. */
function fakePage(digests: string[]) {
  let clock = 0
  const reads: PageQuery[] = []
  let probes = 0
  const page: InspectedPage = {
    origin: async () => 'http://chat.test',
    probe: async () => {
      clock += 100
      return element(digests[Math.min(probes++, digests.length - 1)]!)
    },
    read: async (q) => {
      reads.push(q)
      return element('final', { text: 'the text', cut: false, parts: [] })
    },
    pickStart: async () => true,
    pickPoll: async () => ({ state: 'none' }),
    pickCancel: async () => undefined,
  }
  return { page, reads, now: () => clock, probes: () => probes }
}

describe('readSettled', () => {
  it('reads once the stream finished and the text has not changed for 300 ms, the element the probes watched', async () => {
    const f = fakePage(['1:a', '2:b', '3:c', '3:c'])
    const got = await readSettled(f.page, { selector: null, expected: 'words' }, () => true, f.now)
    expect(got).toEqual({ element: element('final', { text: 'the text', cut: false, parts: [] }), changing: false })
    // the digest stopped changing at the 3rd probe (300 ms): three more probes make 300 ms unchanged
    expect(f.probes()).toBe(6)
    expect(f.reads).toEqual([{ selector: '#chat > div.md', index: 1, expected: 'words' }])
  })

  it('waits for the stream to finish, however still the text', async () => {
    const f = fakePage(['1:a'])
    let done = false
    const got = await readSettled(f.page, { selector: '#x', expected: '' }, () => { if (f.probes() >= 10) done = true; return done }, f.now)
    expect(typeof got === 'string' ? got : got.changing).toBe(false)
    expect(f.probes()).toBe(10)
  })

  it('after 5 s of changes it reads the text as it stands and says it was still changing', async () => {
    const f = fakePage(Array.from({ length: 100 }, (_, i) => `${i}:x`))
    const got = await readSettled(f.page, { selector: '#x', expected: '' }, () => true, f.now)
    expect(typeof got === 'string' ? got : got.changing).toBe(true)
    expect(f.probes()).toBe(SETTLE_MAX_MS / 100)
  })

  it('a probe that fails is the answer (a sentence), nothing read', async () => {
    const f = fakePage(['1:a'])
    f.page.probe = async () => 'The selector "[" is not valid CSS.'
    expect(await readSettled(f.page, { selector: '[', expected: '' }, () => true, f.now)).toBe('The selector "[" is not valid CSS.')
    expect(f.reads).toEqual([])
  })
})

describe('the store and the page', () => {
  function storeWith(ids: string[]) {
    const pending: Array<() => void> = []
    const store = createPanelStore(null, { schedule: (f) => pending.push(f) })
    const tick = () => { while (pending.length) pending.shift()!() }
    for (const id of ids) {
      applyEvent(store, requestEvent({
        id, url: `https://api.openai.com/v1/chat/completions?${id}`, responseHeaders: [{ name: 'content-type', value: 'text/event-stream' }], startedAt: T0, source: 'har',
      }))
      applyEvent(store, { type: 'chunk', id, data: body(), t: null })
      applyEvent(store, { type: 'finished', id, t: T0 + 9 })
    }
    tick()
    return { store, tick }
  }

  it("compares a request with the page's text: rendered, the first difference's frame selected", () => {
    const { store, tick } = storeWith(['a'])
    applyEvent(store, { type: 'compare', id: 'a', against: { page: PAGE_TEXT.replace('€', '\ufffd'), label: 'the page (div.md)', notes: ['Compared div.md.'] } })
    tick()
    const c = store.comparison.value!
    expect([c.label, c.page, c.result.equal, c.result.differences[0]!.cause, c.result.differences[0]!.frame]).toEqual([
      'the page (div.md)',
      { method: 'markdown', renderer: 'micromark + micromark-extension-gfm (CommonMark + GFM)', notes: ['Compared div.md.', "The page's text is nearer the reference's Markdown rendered than its raw text: compared rendered."] },
      false, 'utf8-split', 5,
    ])
    expect(c.fields).toEqual([{ field: 'choices[0].content', equal: false }])
    expect(store.selectedFrame.value).toBe(5)
  })

  it('leaves out the page\'s <details> blocks and buttons, unless the whole text is the reply', () => {
    const { store, tick } = storeWith(['a'])
    applyEvent(store, { type: 'compare', id: 'a', against: { page: PAGE_TEXT + '\nCopy', leaveOut: ['Copy'], label: 'the page' } })
    tick()
    expect([store.comparison.value!.result.equal, store.comparison.value!.page!.notes[0]]).toEqual([true, 'Left out of the page\'s text: "Copy".'])
    // a button whose text is the reply's own ("bold"): left out, the page would differ; the whole text is equal
    applyEvent(store, { type: 'compare', id: 'a', against: { page: PAGE_TEXT, leaveOut: ['bold'], label: 'the page' } })
    tick()
    expect([store.comparison.value!.result.equal, store.comparison.value!.page!.notes.at(-1)]).toEqual([true, 'Compared the whole text: the <details> blocks and buttons in it are part of the reply.'])
  })

  it("keeps each row's verdict: equal, differs with its cause, not shown (nothing, or another reply's text)", () => {
    const { store, tick } = storeWith(['a', 'b', 'c', 'd', 'e'])
    const lacking = PAGE_TEXT.replace('first item\nsecond item', 'item')
    applyEvent(store, { type: 'page-verdict', id: 'a', text: PAGE_TEXT, where: 'div.md' })
    applyEvent(store, { type: 'page-verdict', id: 'b', text: lacking, where: 'div.md' })
    applyEvent(store, { type: 'page-verdict', id: 'c', text: null, where: 'no element matches div.md' })
    applyEvent(store, { type: 'page-verdict', id: 'd', text: 'Some other reply entirely.', where: 'div.md' })
    applyEvent(store, { type: 'page-verdict', id: 'e', text: '  \n', where: 'div.md' })
    tick()
    expect(store.requests.value.map((r) => r.page)).toEqual([
      { state: 'equal', message: 'The page shows this reply (div.md, compared rendered as Markdown).' },
      {
        state: 'differs', cause: 'dropped-frames', frame: 2,
        message: `dropped-frames: The client dropped frame 2: its text (${JSON.stringify(' first item second')}) is missing from the content. (div.md, compared rendered as Markdown)`,
      },
      { state: 'not-shown', message: 'Not shown: no element matches div.md.' },
      { state: 'not-shown', message: 'Not shown: div.md shows another text (a background request?).' },
      { state: 'not-shown', message: 'Not shown: div.md is empty.' },
    ])
    expect(DELTAS[1]).toBe('- first item\n- second ')
  })
})
