// The Chrome build's service worker: live capture through chrome.debugger (live.ts).

import { serveHubs } from '../extension/background.js'
import { handleHubMessage, installLiveCapture, stopLive } from './live.js'

installLiveCapture()
serveHubs({ handle: handleHubMessage, stop: stopLive })
