import { describe, expect, it } from 'vitest'
import { LiveLedger, MATCH_WINDOW_MS } from '../../src/shells/extension/dedupe.js'

const URL_A = 'http://127.0.0.1:1/v1/chat/completions?fixture=a'
const live = (id: string, startedAt: number, url = URL_A, requestId = id) => ({ id, requestId, method: 'POST', url, startedAt })
const har = (startedAt: number, url = URL_A, requestId: string | null = null) => ({ requestId, method: 'POST', url, startedAt })

describe('LiveLedger: a request captured live is not listed again from onRequestFinished', () => {
  it('drops the HAR entry of a request that finished live', () => {
    const l = new LiveLedger<string>()
    l.add(live('L1', 1000))
    l.finish('L1')
    expect(l.claim(har(1003), 'h1')).toBe('duplicate')
  })

  it('lists a HAR entry with no live counterpart', () => {
    const l = new LiveLedger<string>()
    l.add(live('L1', 1000))
    l.finish('L1')
    expect(l.claim(har(1000, 'http://other/'), 'h')).toBe('new')
    expect(l.claim(har(1000 + MATCH_WINDOW_MS + 1), 'h')).toBe('new')
  })

  it('a live request matches one HAR entry only; the nearest start wins', () => {
    const l = new LiveLedger<string>()
    l.add(live('L1', 1000))
    l.add(live('L2', 1400))
    l.finish('L1')
    l.finish('L2')
    expect(l.claim(har(1390), 'a')).toBe('duplicate') // L2
    expect(l.claim(har(1390), 'b')).toBe('duplicate') // L1, still within the window
    expect(l.claim(har(1390), 'c')).toBe('new')
  })

  it('matches by CDP requestId when the HAR entry has one, whatever the times say', () => {
    const l = new LiveLedger<string>()
    l.add(live('live:tab:77.1', 1000, URL_A, '77.1'))
    l.add(live('live:tab:77.2', 5000, URL_A, '77.2'))
    l.finish('live:tab:77.1')
    l.finish('live:tab:77.2')
    expect(l.claim(har(999_999, URL_A, '77.2'), 'x')).toBe('duplicate')
  })

  it('holds the HAR entry of a request still streaming live, drops it when live finishes', () => {
    const l = new LiveLedger<string>()
    l.add(live('L1', 1000))
    expect(l.claim(har(1000), 'h')).toBe('held')
    l.finish('L1')
    expect(l.abandon('L1')).toEqual([])
  })

  it('gives the held HAR entry back when live capture is lost mid-stream', () => {
    const l = new LiveLedger<string>()
    l.add(live('L1', 1000))
    expect(l.claim(har(1000), 'h')).toBe('held')
    expect(l.openIds()).toEqual(['L1'])
    expect(l.abandon('L1')).toEqual(['h'])
    expect(l.openIds()).toEqual([])
  })

  it('lists the HAR entry of a request abandoned before its HAR entry came', () => {
    const l = new LiveLedger<string>()
    l.add(live('L1', 1000))
    l.abandon('L1')
    expect(l.claim(har(1000), 'h')).toBe('new')
  })

  it('a request the page cancelled (finished live as cancelled) is not listed again', () => {
    const l = new LiveLedger<string>()
    l.add(live('L1', 1000))
    l.finish('L1')
    expect(l.state('L1')).toBe('done')
    expect(l.claim(har(1000), 'h')).toBe('duplicate')
  })
})
