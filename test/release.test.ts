// Releases (scripts/package.ts, scripts/zip.ts): one version, written once in package.json; the
// ZIP writer the Chrome packages are made with, read back by its reader and by other tools;
// what the package step refuses to ship.

import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { PROBE_MARKER, checkPackage, parseArgs } from '../scripts/package.js'
import { readZip, writeZip, type ZipEntry } from '../scripts/zip.js'

const ROOT = join(import.meta.dirname, '..')
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

const text = (name: string, data: string): ZipEntry => ({ name, data: Buffer.from(data, 'utf8') })
const ENTRIES: ZipEntry[] = [
  text('manifest.json', JSON.stringify({ version: '1.2.3' })),
  text('assets/panel.js', 'console.log("x");\n'.repeat(500)), // deflated
  text('empty.txt', ''), // stored
  { name: 'src/shells/extension/icons/icon.png', data: Uint8Array.from({ length: 300 }, (_, i) => (i * 7919) % 256) },
  text('dossier/café ☕.txt', 'accented'), // UTF-8 name
]

describe('one version', () => {
  it('package.json has it, as a manifest can carry it (1 to 4 integers)', () => {
    expect(VERSION).toMatch(/^\d+(\.\d+){0,3}$/)
  })

  it('manifest.json carries none: the build stamps package.json\'s (vite.config.ext.ts)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8')) as Record<string, unknown>
    expect(manifest['version']).toBeUndefined()
    const config = readFileSync(join(ROOT, 'vite.config.ext.ts'), 'utf8')
    expect(config).toContain('version: VERSION')
    expect(config.match(/\bversion: '/g)).toBeNull() // no version written by hand in a derived manifest
  })
})

describe('the ZIP writer', () => {
  it('reads back what it wrote, byte for byte, the same bytes each time', () => {
    const zip = writeZip(ENTRIES)
    expect(readZip(zip).map((e) => [e.name, Buffer.from(e.data).toString('hex')])).toEqual(ENTRIES.map((e) => [e.name, Buffer.from(e.data).toString('hex')]))
    expect(writeZip(ENTRIES).equals(zip)).toBe(true)
  })

  it('writes each entry\'s CRC-32 (zlib.crc32, the check value of "123456789" is cbf43926)', () => {
    expect(crc32('123456789').toString(16)).toBe('cbf43926')
    const zip = writeZip([text('a.txt', '123456789')])
    expect(zip.readUInt32LE(14).toString(16)).toBe('cbf43926') // local header
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    expect(zip.readUInt32LE(central + 16).toString(16)).toBe('cbf43926')
    const corrupt = Buffer.from(zip)
    corrupt.writeUInt8(corrupt.readUInt8(30 + 'a.txt'.length) ^ 1, 30 + 'a.txt'.length) // stored ("123456789" does not deflate smaller): flip a bit of the data
    expect(() => readZip(corrupt)).toThrow(/CRC-32/)
  })

  it('is read by Info-ZIP unzip and by Python\'s zipfile, names and contents', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deltascope-zip-'))
    try {
      const path = join(dir, 'test.zip')
      writeFileSync(path, writeZip(ENTRIES))
      if (spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0) {
        expect(execFileSync('unzip', ['-t', path], { encoding: 'utf8' })).toContain('No errors detected')
      }
      if (spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0) {
        const listed = execFileSync('python3', ['-c', [
          'import json, sys, zipfile',
          'z = zipfile.ZipFile(sys.argv[1])',
          'assert z.testzip() is None',
          'print(json.dumps([[i.filename, z.read(i).hex(), i.external_attr >> 16] for i in z.infolist()]))',
        ].join('\n'), path], { encoding: 'utf8' })
        expect(JSON.parse(listed)).toEqual(ENTRIES.map((e) => [e.name, Buffer.from(e.data).toString('hex'), 0o100644]))
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses names that would leave the folder, and a name twice', () => {
    for (const name of ['/etc/passwd', '../x', 'a/../../x', 'a\\b', '', 'a//b']) {
      expect(() => writeZip([text(name, 'x')]), name).toThrow(/not a relative file name/)
    }
    expect(() => writeZip([text('a', '1'), text('a', '2')])).toThrow(/twice/)
  })
})

describe('the package step', () => {
  const manifest = (m: object): ZipEntry => text('manifest.json', JSON.stringify(m))
  const good = { version: VERSION, content_security_policy: { extension_pages: "script-src 'self'" } }

  it('refuses a source map (unless asked), the test probe, another version, a missing CSP', () => {
    expect(checkPackage([manifest(good), text('a.js', 'x')], VERSION, false)).toEqual([])
    expect(checkPackage([manifest(good), text('a.js.map', '{}')], VERSION, false)).toEqual(['source map a.js.map'])
    expect(checkPackage([manifest(good), text('a.js.map', '{}')], VERSION, true)).toEqual([])
    expect(checkPackage([manifest(good), text('p.js', `fetch(base + '${PROBE_MARKER}')`)], VERSION, false)).toEqual(['test probe in p.js'])
    expect(checkPackage([manifest({ ...good, version: '9.9.9' })], VERSION, false)).toEqual([`manifest version 9.9.9, package.json's is ${VERSION}`])
    expect(checkPackage([manifest({ version: VERSION })], VERSION, false)).toEqual(['no content_security_policy.extension_pages'])
  })

  it('the probe marker is the probe\'s endpoint (src/shells/extension/test-probe.ts)', () => {
    expect(readFileSync(join(ROOT, 'src/shells/extension/test-probe.ts'), 'utf8')).toContain(`\${base}${PROBE_MARKER}`)
  })

  it('options: --out, --sourcemaps, --no-build, --no-npm', () => {
    expect(parseArgs([])).toMatchObject({ out: join(ROOT, 'release'), sourcemaps: false, build: true, npm: true })
    expect(parseArgs(['--out', '/tmp/x', '--sourcemaps', '--no-build', '--no-npm'])).toMatchObject({ out: '/tmp/x', sourcemaps: true, build: false, npm: false })
    expect(() => parseArgs(['--out'])).toThrow(/needs a folder/)
    expect(() => parseArgs(['--zip'])).toThrow(/unknown option --zip/)
  })
})
