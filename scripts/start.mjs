// npm start: build what is missing, then serve the demo chat app and the standalone
// inspector page (127.0.0.1 only), and say where the unpacked extension is.
//   PORT=8787 npm start          npm start -- --rebuild

import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const rebuild = process.argv.includes('--rebuild')
const parts = [
  { script: 'build:lib', output: 'dist/lib/core/index.js' },
  { script: 'build:page', output: 'dist/page/index.html' },
  { script: 'build:ext', output: 'dist/chrome-live/manifest.json' },
]

for (const { script, output } of parts) {
  if (!rebuild && existsSync(root + output)) continue
  console.log(`Building ${output} (npm run ${script})…`)
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) {
    console.error(`npm start: 'npm run ${script}' failed; fix the error above and run npm start again`)
    process.exit(1)
  }
}

console.log(`\nDeltascope`)
console.log(`Extension to load unpacked: ${root}dist/chrome   (chrome://extensions → Developer mode → Load unpacked)`)
console.log(`  with Live capture:        ${root}dist/chrome-live   (adds the debugger permission)`)
const server = spawn(process.execPath, ['--import', 'tsx', 'demo/server.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DELTASCOPE_PAGE_DIR: root + 'dist/page', PORT: process.env.PORT ?? '8787' },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code) => process.exit(code ?? 0))
