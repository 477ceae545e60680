// The package's entry (`deltascope`): the library face and the debugger built on it.
// (The composition lives in library.ts so that modules one floor up can use it without an
// import cycle through this file.)

export * from './library.js'
export { compareReply, type CompareOptions } from './debug/compare.js'
export { compareRenderedText, type RenderedCompareOptions, type RenderedComparison } from './debug/compare-rendered.js'
export type { Comparison, Difference } from './debug/compare-types.js'
export { COMPARE_CAUSES, type CompareCause } from './debug/compare-causes.js'
export { diagnose, diagnoseMerger, type DiagnoseMergerOptions, type DiagnoseOptions } from './debug/diagnose.js'
export { timing, timingOfMerger, type Timing, type TimingOptions } from './debug/timing.js'
