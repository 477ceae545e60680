// CRC-32 (IEEE 802.3, the one zlib and gzip use), as the AWS event stream checks its prelude
// and its messages with. Table-driven; `crc32(bytes, crc32(prefix))` continues a sum, so a
// message's CRC covers the prelude and the rest without copying them together.

const TABLE = (() => {
  const t = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c >>> 0
  }
  return t
})()

/** The CRC-32 of `bytes`, continuing from `previous` (the CRC of what came before them). */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let c = (previous ^ 0xffffffff) >>> 0
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
