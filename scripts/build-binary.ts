// Compiles the server, its embedded assets and migrations into one executable: dist/brokernet (or the path given:
// `bun scripts/build-binary.ts /tmp/brokernet`).
//
// Not minified, on purpose (docs/decisions/003-unminified-binary.md): Elysia decides what each handler reads from the
// request by reading the handler's source text, and minified text makes it miss `headers`, so every signed-in route
// answered 500. Minifying saved 1.7 MB of 122 MB and no start-up time.
import { statSync } from 'node:fs'
import { resolve } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const outfile = resolve(root, process.argv[2] ?? 'dist/brokernet')
const started = performance.now()
const proc = Bun.spawnSync(
  [
    process.execPath,
    'build',
    '--compile',
    '--bytecode',
    '--format=esm',
    // The binary always runs in production mode: no stack traces or request echoes in answers.
    '--define',
    'process.env.NODE_ENV="production"',
    'src/server.ts',
    '--outfile',
    outfile,
  ],
  { cwd: root, stdout: 'inherit', stderr: 'inherit' },
)
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1)
const mb = statSync(outfile).size / 1024 / 1024
console.log(`${outfile}: ${mb.toFixed(1)} MB, built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
