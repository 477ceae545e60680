// The store's side of the hub's event channel (src/shells/extension/hub-events.ts), over a real
// BroadcastChannel: the store says hello until the hub replays what it kept, then takes the
// events that follow; each event arrives once, in the hub's order.

import { afterEach, describe, expect, it } from 'vitest'
import { connectHubEvents } from '../../src/shells/extension/hub-events.js'
import { hubChannelName, type HubToStore, type StoreToHub } from '../../src/shells/extension/messages.js'
import type { CaptureEvent } from '../../src/exchange/types.js'

const TAB = 4242
const live = (n: number): CaptureEvent => ({ type: 'live', enabled: n % 2 === 0 })
const until = async (ok: () => boolean) => { for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5)) }

/** A hub on the tab's channel: what it heard, and how to answer. */
function fakeHub() {
  const channel = new BroadcastChannel(hubChannelName(TAB))
  const hellos: string[] = []
  channel.onmessage = (ev: MessageEvent<StoreToHub>) => { hellos.push(ev.data.storeId) }
  const send = (m: HubToStore) => channel.postMessage(m)
  return { hellos, send, close: () => channel.close() }
}

const open: Array<() => void> = []
afterEach(() => { for (const close of open.splice(0)) close() })

describe('the capture events a store takes from the hub', () => {
  it('says hello, takes the replay for itself, then the events after it, each once and in order', async () => {
    const hub = fakeHub()
    const got: CaptureEvent[] = []
    open.push(connectHubEvents({ tabId: TAB }, (e) => got.push(e)), hub.close)
    await until(() => hub.hellos.length > 0)
    const id = hub.hellos[0]!
    hub.send({ type: 'event', n: 1, event: live(1) }) // before the replay: it is in the replay
    hub.send({ type: 'replay', storeId: 'another store', events: [{ n: 1, event: live(100) }] })
    hub.send({ type: 'replay', storeId: id, events: [{ n: 1, event: live(1) }, { n: 2, event: live(2) }] })
    hub.send({ type: 'event', n: 2, event: live(2) }) // already in the replay
    hub.send({ type: 'event', n: 3, event: live(3) })
    hub.send({ type: 'replay', storeId: id, events: [{ n: 1, event: live(1) }] }) // a second answer to a retried hello
    hub.send({ type: 'event', n: 4, event: live(4) })
    await until(() => got.length >= 4)
    await new Promise((r) => setTimeout(r, 20))
    expect(got).toEqual([live(1), live(2), live(3), live(4)])
  })

  it('says hello again until the hub answers (the devtools page may still be starting), then stops', async () => {
    const hub = fakeHub()
    open.push(connectHubEvents({ tabId: TAB }, () => {}), hub.close)
    await until(() => hub.hellos.length >= 2)
    expect(new Set(hub.hellos).size).toBe(1)
    hub.send({ type: 'replay', storeId: hub.hellos[0]!, events: [] })
    await new Promise((r) => setTimeout(r, 50))
    const asked = hub.hellos.length
    await new Promise((r) => setTimeout(r, 600))
    expect(hub.hellos.length).toBe(asked)
  })

  it('takes nothing once disconnected', async () => {
    const hub = fakeHub()
    const got: CaptureEvent[] = []
    const disconnect = connectHubEvents({ tabId: TAB }, (e) => got.push(e))
    open.push(hub.close)
    await until(() => hub.hellos.length > 0)
    hub.send({ type: 'replay', storeId: hub.hellos[0]!, events: [{ n: 1, event: live(1) }] })
    await until(() => got.length === 1)
    disconnect()
    hub.send({ type: 'event', n: 2, event: live(2) })
    await new Promise((r) => setTimeout(r, 30))
    expect(got).toEqual([live(1)])
  })
})
