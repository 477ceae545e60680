// Import and export of captured streams (docs/architecture.md#exchange-formats): pure functions over plain data,
// shared by the DevTools panel, the standalone page and Node.

export { base64Decode, base64Encode } from './bytes.js'
export { shellQuote, toCurl, type CurlOptions } from './curl.js'
export { exportFileName, type ExportKind } from './filename.js'
export {
  FIXTURE_FORMAT, FIXTURE_VERSION, FixtureError, TOOL_VERSION, checkFixture, fixtureBody, fixtureChunks, fixtureMergeOptions,
  fixtureToJson, parseFixture, replayFixture, toFixture, type Fixture, type FixtureChunk,
} from './fixture.js'
export {
  HarError, parseHar, requestFromHarEntry, toHar,
  type Har, type HarEntry, type HarImport, type HarStream, type ParseHarOptions,
} from './har.js'
export {
  importBytes, importText, importToEvents, type EventOptions, type ImportOptions, type ImportResult,
} from './import.js'
export { toJsonLines, toRawBody, type JsonLinesExport, type RawExport } from './raw.js'
export { SNIFF_HEAD, classifyBody, classifyBytes, listedReason, sniffBody, sniffsAsStream, type BodyVerdict } from './sniff.js'
export {
  REDACTED, isSecretField, isSecretHeader, isSecretHeaderValue, isSecretParam, isSecretSegment, redactBody, redactHeaders, redactRecording, redactUrl,
  checkRedactionRules, redactListed, rulesFromLines, type RedactedRecording, type Redaction, type RedactionRules, type RuleProblem,
} from './redact.js'
export {
  WS_FIXTURE_FORMAT, harWebSockets, parseWsFixture, replayTurns, toWsFixture, wsCaptureFromHarEntry,
  type ExpectedTurn, type WsCapture, type WsFixture,
} from './websocket.js'
export { redactWsCapture } from './websocket-redact.js'
export { TurnStreams, turnEvents, turnRecordings, type TurnStreamOptions } from './ws-turns.js'
export { toTestFile, type TestFileOptions } from './testfile.js'
export type { CapturedChunk, Recording, ExportOptions, ForcedOptions } from './types.js'
