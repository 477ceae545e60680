// After tsc: make the CLI executable (npm links `bin` as is).
import { chmodSync, existsSync } from 'node:fs'
const cli = new URL('../dist/lib/cli/main.js', import.meta.url)
if (existsSync(cli)) chmodSync(cli, 0o755)
