// A small ZIP writer and reader (PKWARE APPNOTE 6.3, no ZIP64, no encryption) for the release
// packages (scripts/package.ts) and their tests. Entries are deflated (node:zlib deflateRaw) or
// stored when deflating does not help, named in UTF-8 (flag bit 11), each with its CRC-32
// (zlib.crc32) in both the local header and the central directory, and a fixed timestamp, so
// the same files always make the same bytes.

import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib'

export interface ZipEntry {
  /** Forward slashes, no leading slash: `manifest.json`, `assets/panel.js`. */
  name: string
  data: Uint8Array
}

const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50
const END = 0x06054b50
const UTF8 = 0x0800
const STORED = 0
const DEFLATED = 8
/** 1980-01-01 00:00:00, the first time a ZIP can say (MS-DOS date: day 1, month 1, year 0). */
const DOS_TIME = 0
const DOS_DATE = (1 << 5) | 1
const MAX_U32 = 0xffffffff

function checkName(name: string): void {
  if (name === '' || name.startsWith('/') || name.includes('\\') || name.split('/').some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`zip: not a relative file name: ${JSON.stringify(name)}`)
  }
}

/** The ZIP archive of `entries`, in the order given. */
export function writeZip(entries: readonly ZipEntry[]): Buffer {
  if (entries.length > 0xffff) throw new Error('zip: more than 65535 entries needs ZIP64')
  const seen = new Set<string>()
  const parts: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const { name, data } of entries) {
    checkName(name)
    if (seen.has(name)) throw new Error(`zip: ${name} twice`)
    seen.add(name)
    const nameBytes = Buffer.from(name, 'utf8')
    const raw = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    const deflated = deflateRawSync(raw, { level: 9 })
    const [method, body] = deflated.length < raw.length ? [DEFLATED, deflated] : [STORED, raw]
    const crc = crc32(raw)
    if (raw.length > MAX_U32 || offset > MAX_U32) throw new Error('zip: over 4 GiB needs ZIP64')

    // the fields a local header and its central directory record share, in the same order
    const shared = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at) // version needed: 2.0 (deflate)
      header.writeUInt16LE(UTF8, at + 2)
      header.writeUInt16LE(method, at + 4)
      header.writeUInt16LE(DOS_TIME, at + 6)
      header.writeUInt16LE(DOS_DATE, at + 8)
      header.writeUInt32LE(crc, at + 10)
      header.writeUInt32LE(body.length, at + 14)
      header.writeUInt32LE(raw.length, at + 18)
      header.writeUInt16LE(nameBytes.length, at + 22)
    }

    const local = Buffer.alloc(30)
    local.writeUInt32LE(LOCAL, 0)
    shared(local, 4)
    local.writeUInt16LE(0, 28) // no extra field

    const dir = Buffer.alloc(46)
    dir.writeUInt32LE(CENTRAL, 0)
    dir.writeUInt16LE((3 << 8) | 20, 4) // made by: Unix, 2.0 (so the mode below is read)
    shared(dir, 6)
    // extra, comment, disk number, internal attributes: 0
    dir.writeUInt32LE((0o100644 << 16) >>> 0, 38) // external attributes: a regular file, rw-r--r--
    dir.writeUInt32LE(offset, 42)

    parts.push(local, nameBytes, body)
    central.push(dir, nameBytes)
    offset += local.length + nameBytes.length + body.length
  }
  const dirBytes = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(dirBytes.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, dirBytes, end])
}

/**
 * The files of a ZIP archive (stored or deflated entries; directories left out), read through
 * its central directory, each checked against its CRC-32 and sizes.
 */
export function readZip(zip: Uint8Array): ZipEntry[] {
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength)
  let end = -1
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === END) { end = i; break }
  }
  if (end < 0) throw new Error('zip: no end of central directory')
  const count = buf.readUInt16LE(end + 10)
  let p = buf.readUInt32LE(end + 16)
  const files: ZipEntry[] = []
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== CENTRAL) throw new Error(`zip: bad central directory entry ${i}`)
    const flags = buf.readUInt16LE(p + 8)
    const method = buf.readUInt16LE(p + 10)
    const crc = buf.readUInt32LE(p + 16)
    const size = buf.readUInt32LE(p + 20)
    const rawSize = buf.readUInt32LE(p + 24)
    const nameLength = buf.readUInt16LE(p + 28)
    const extraLength = buf.readUInt16LE(p + 30)
    const commentLength = buf.readUInt16LE(p + 32)
    const at = buf.readUInt32LE(p + 42)
    const name = buf.toString(flags & UTF8 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength)
    p += 46 + nameLength + extraLength + commentLength
    if (flags & 1) throw new Error(`zip: ${name} is encrypted`)
    if (buf.readUInt32LE(at) !== LOCAL) throw new Error(`zip: ${name}: bad local header`)
    const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28)
    const body = buf.subarray(start, start + size)
    if (name.endsWith('/')) continue
    let data: Buffer
    if (method === STORED) data = Buffer.from(body)
    else if (method === DEFLATED) data = inflateRawSync(body)
    else throw new Error(`zip: ${name}: compression method ${method}`)
    if (data.length !== rawSize) throw new Error(`zip: ${name}: ${data.length} bytes, the directory says ${rawSize}`)
    if (crc32(data) !== crc) throw new Error(`zip: ${name}: CRC-32 mismatch`)
    files.push({ name, data })
  }
  return files
}
