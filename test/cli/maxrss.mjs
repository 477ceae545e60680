// Preloaded into the CLI by the memory test: reports the process's peak RSS (KiB) on exit.
import { writeSync } from 'node:fs'
process.on('exit', () => {
  writeSync(2, `\nmaxrss-kib=${process.resourceUsage().maxRSS}\n`)
})
