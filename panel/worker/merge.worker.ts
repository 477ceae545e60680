// The dedicated Worker that runs the panel's mergers (host.ts), started by the UI side
// (client.ts) from its bundle. bench:ui bundles it with esbuild and starts it from a Blob URL
// (a page opened from file:// can start no worker from a file). The page's and the DevTools
// panel's stores do not read from it yet: that is the step left (issue 18).

import type { FromWorker, ToWorker } from './protocol.js'
import { createMergeHost } from './host.js'

interface WorkerScope {
  postMessage(message: FromWorker, transfer?: Transferable[]): void
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null
}

const scope = globalThis as unknown as WorkerScope
const host = createMergeHost((message, transfer) => scope.postMessage(message, transfer ?? []))
scope.onmessage = (event) => host.receive(event.data)
