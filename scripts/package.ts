// npm run package: the release files, named with package.json's version, in release/ (ignored by git).
//
//   deltascope-chrome-<v>.zip        dist/chrome: no permission (Chrome Web Store, or unzip and Load unpacked)
//   deltascope-chrome-live-<v>.zip   dist/chrome-live: the same with `debugger` (Live capture)
//   deltascope-firefox-<v>.xpi       dist/firefox through `web-ext build`, then `web-ext lint` on the .xpi's files
//   deltascope-<v>.tgz               `npm pack` (the library and the CLI)
//
// Store-ready: the extension is built as shipped (no test probe: src/shells/extension/test-probe.ts is
// only in test builds), and the packages hold no source map unless `--sourcemaps` is passed
// (then the build writes them and they are packed). Each package is read back and checked:
// its manifest has package.json's version, it has no probe and no .map unless asked.
//
//   npm run package [-- --out <dir>] [--sourcemaps] [--no-build] [--no-npm]
//
// --out: another folder (the e2e test packages into a temporary one); --no-build: package the
// dist/ there is (the tests build it once, under their lock); --no-npm: leave out the tarball.

import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readZip, writeZip, type ZipEntry } from './zip.js'

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
const BIN = join(ROOT, 'node_modules/.bin')

/** What only a test build has: the probe's endpoint (src/shells/extension/test-probe.ts). */
export const PROBE_MARKER = '/probe/next'

export interface PackageOptions {
  out: string
  sourcemaps: boolean
  build: boolean
  npm: boolean
  quiet: boolean
}

export interface Packaged {
  version: string
  chrome: string
  chromeLive: string
  firefox: string
  npm: string | null
}

export function parseArgs(argv: readonly string[]): PackageOptions {
  const options: PackageOptions = { out: join(ROOT, 'release'), sourcemaps: false, build: true, npm: true, quiet: false }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--out') {
      const dir = argv[++i]
      if (!dir) throw new Error('--out needs a folder')
      options.out = resolve(dir)
    } else if (arg === '--sourcemaps') options.sourcemaps = true
    else if (arg === '--no-build') options.build = false
    else if (arg === '--no-npm') options.npm = false
    else if (arg === '--quiet') options.quiet = true
    else throw new Error(`unknown option ${arg} (--out <dir>, --sourcemaps, --no-build, --no-npm, --quiet)`)
  }
  return options
}

function files(dir: string, base = dir): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path, base) : [relative(base, path).split(sep).join('/')]
  })
}

/** The problems of a package's files: a manifest of another version, the test probe, source maps not asked for. */
export function checkPackage(entries: readonly ZipEntry[], version: string, sourcemaps: boolean): string[] {
  const problems: string[] = []
  const manifest = entries.find((e) => e.name === 'manifest.json')
  if (!manifest) problems.push('no manifest.json')
  else {
    const m = JSON.parse(Buffer.from(manifest.data).toString('utf8')) as { version?: string; content_security_policy?: { extension_pages?: string } }
    if (m.version !== version) problems.push(`manifest version ${m.version}, package.json's is ${version}`)
    if (!m.content_security_policy?.extension_pages) problems.push('no content_security_policy.extension_pages')
  }
  for (const e of entries) {
    if (!sourcemaps && e.name.endsWith('.map')) problems.push(`source map ${e.name}`)
    if (Buffer.from(e.data).includes(PROBE_MARKER)) problems.push(`test probe in ${e.name}`)
    if (!sourcemaps && e.name.endsWith('.js') && Buffer.from(e.data).includes('//# sourceMappingURL=')) problems.push(`${e.name} points at a source map (built with --sourcemaps: build again without)`)
  }
  return problems
}

export function packageRelease(options: PackageOptions): Packaged {
  const say = (line: string): void => { if (!options.quiet) console.log(line) }
  const run = (cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): string =>
    execFileSync(cmd, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 })
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version
  mkdirSync(options.out, { recursive: true })

  if (options.build) {
    if (options.npm) {
      say('building the library (npm run build:lib)…')
      run('npm', ['run', '--silent', 'build:lib'])
    }
    say(`building the extension${options.sourcemaps ? ' with source maps' : ''} (vite.config.ext.ts)…`)
    run(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.config.ext.ts', '--logLevel', 'error'], {
      DELTASCOPE_SOURCEMAPS: options.sourcemaps ? '1' : '0',
    })
  }

  const check = (path: string): void => {
    const problems = checkPackage(readZip(readFileSync(path)), version, options.sourcemaps)
    if (problems.length > 0) throw new Error(`${relative(ROOT, path) || path}: ${problems.join('; ')}`)
  }

  const zipDir = (dir: string, name: string): string => {
    const entries = files(join(ROOT, 'dist', dir))
      .filter((f) => options.sourcemaps || !f.endsWith('.map'))
      .map((f) => ({ name: f, data: readFileSync(join(ROOT, 'dist', dir, f)) }))
    const path = join(options.out, name)
    writeFileSync(path, writeZip(entries))
    check(path)
    return path
  }
  const chrome = zipDir('chrome', `deltascope-chrome-${version}.zip`)
  const chromeLive = zipDir('chrome-live', `deltascope-chrome-live-${version}.zip`)

  const xpiName = `deltascope-firefox-${version}.xpi`
  run(join(BIN, 'web-ext'), [
    'build', '--source-dir', join(ROOT, 'dist/firefox'), '--artifacts-dir', options.out, '--filename', xpiName, '--overwrite-dest',
    ...(options.sourcemaps ? [] : ['--ignore-files', '**/*.map']),
  ])
  const firefox = join(options.out, xpiName)
  check(firefox)
  // lint what the .xpi holds (web-ext lint reads a folder)
  const unpacked = mkdtempSync(join(tmpdir(), 'deltascope-xpi-'))
  try {
    for (const e of readZip(readFileSync(firefox))) {
      mkdirSync(dirname(join(unpacked, e.name)), { recursive: true })
      writeFileSync(join(unpacked, e.name), e.data)
    }
    const report = JSON.parse(run(join(BIN, 'web-ext'), ['lint', '--source-dir', unpacked, '--output', 'json', '--no-input'])) as {
      errors: Array<{ code: string; message: string; file?: string }>
      warnings: Array<{ code: string; message: string; file?: string }>
    }
    if (report.errors.length > 0) throw new Error(`web-ext lint: ${report.errors.map((e) => `${e.code} ${e.file ?? ''}: ${e.message}`).join('; ')}`)
    say(`web-ext lint ${xpiName}: 0 errors, ${report.warnings.length} warning(s)${report.warnings.map((w) => `\n  ${w.code} ${w.file ?? ''}`).join('')}`)
  } finally {
    rmSync(unpacked, { recursive: true, force: true })
  }

  let npm: string | null = null
  if (options.npm) {
    const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', options.out])) as Array<{ filename: string }>
    npm = join(options.out, packed[0]!.filename)
  }

  for (const path of [chrome, chromeLive, firefox, npm]) {
    if (path) say(`${relative(process.cwd(), path) || path}  ${(statSync(path).size / 1024).toFixed(1)} KiB`)
  }
  return { version, chrome, chromeLive, firefox, npm }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    packageRelease(parseArgs(process.argv.slice(2)))
  } catch (e) {
    console.error(`npm run package: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  }
}
