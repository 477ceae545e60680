// The Firefox build's background script: live capture through webRequest.filterResponseData
// (live-firefox.ts). No chrome.debugger here: Firefox has none, and web-ext lint rejects it.

import { serveHubs } from '../extension/background.js'
import { firefoxLive } from './live.js'

serveHubs(firefoxLive)
