// The DevTools panel's store worker: the panel's store (panel/remote/host.ts) taking the
// inspected tab's capture events from the hub itself (hub-events.ts), so a captured body
// crosses from the devtools page to the worker once and never passes through the panel's UI
// thread. Started from the extension's own file (an extension page's CSP admits no blob:
// worker); the panel page sends the tab with `connect` (the shell's `workerEvents`).

import { createStoreHost } from '../../../panel/remote/host.js'
import type { FromStore, Port, ToStore } from '../../../panel/remote/protocol.js'
import { connectHubEvents, type HubEventsSource } from './hub-events.js'

createStoreHost(globalThis as unknown as Port<ToStore, FromStore>, {}, (source, onEvent) => connectHubEvents(source as HubEventsSource, onEvent))
