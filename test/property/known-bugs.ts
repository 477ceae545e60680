// Core bugs the property tests found, still open. Each has an `it.fails` minimal repro
// marked `// BUG:`; while a bug is open, the properties steer their generators around it
// (so the suite stays green without hiding anything else). When the core is fixed: set the
// flag to true, flip the `it.fails` to `it`, and the properties run unrestricted again.

export const FIXED = {
  /**
   * Transport sniffing decides on a partial first line: a chunk ending in exactly
   * `data` / `event` / `id` / `retry` matches /^(data|event|id|retry)(:|$)/ although the
   * whole line is `database: …` / `identity: …` (unknown transport when merged whole).
   */
  sniffPartialFieldName: true,
  /**
   * invalid-utf8 diagnostics are missed for a decoded chunk whose character count equals its
   * byte count (ASCII plus single-byte invalid bytes such as 0xFF, 0x80, a lone 0xC3 before
   * ASCII): the chunk is taken for pure ASCII and its U+FFFD are never looked at.
   */
  asciiChunkHidesInvalidUtf8: true, // fixed in src/core/utf8.ts decodeWhole (a chunk with U+FFFD is never taken for ASCII)
  /** With a BOM in the same chunk as an invalid byte, the diagnostic's byteOffset is 3 too high. */
  bomShiftsInvalidUtf8Offset: true,
  /**
   * The unknown-transport diagnostic quotes the first line as far as it had arrived when the
   * sniffer decided (after 8 characters): "garbage " instead of "garbage €" when cut there.
   */
  unknownTransportMessageQuotesPartialLine: true,
  /** A usage field named "__proto__" is lost: assignment on a plain object sets its prototype. */
  usageProtoKey: true,
}
