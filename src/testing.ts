// `deltascope/testing`: a recorded stream replayed for the user's own tests, the check that
// their client rebuilt what a correct client would, and the same capture under every chunking
// that breaks real clients. Plain Node and browsers (no Node APIs, no DOM): what it needs is the
// platform's fetch types (Response, Headers, ReadableStream).
//
//   const client = new OpenAI({ apiKey: 'x', fetch: async () => replayResponse(fixture) })
//   const reply = await client.chat.completions.stream({ … }).finalChatCompletion()
//   expect(compareReply(fixture, reply).differences).toEqual([])
//
//   const report = await stressClient((fetch) => myChat(fetch), fixture)
//   expect(report.firstFailure).toBeNull()
//
// In an msw handler: `http.post(url, () => replayResponse(fixture, { speed: 1 }))`. Each call
// makes a new Response (a body is read once).

export { replayResponse, replayStream, type ReplayOptions } from './debug/replay.js'
export { stressClient, type StressClient, type StressOptions, type StressReport, type StressRun } from './debug/stress.js'
export { CHUNKINGS, DEFAULT_CHUNKINGS, type ChunkingName } from './debug/stress-chunkings.js'
export { parseFixture, FixtureError, type Fixture, type FixtureChunk } from './exchange/fixture.js'
export { compareReply, type CompareOptions } from './debug/compare.js'
export type { Comparison, Difference } from './debug/compare-types.js'
export { COMPARE_CAUSES, type CompareCause } from './debug/compare-causes.js'
export { CLIENT_SHAPES, detectClientShape, type ClientShape } from './debug/client-shapes.js'
export { replayWebSocket, type WebSocketReplay, type WebSocketReplayOptions } from './debug/replay-websocket.js'
export { parseWsFixture, type WsCapture, type WsFixture } from './exchange/websocket.js'
