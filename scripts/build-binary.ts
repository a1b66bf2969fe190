// Compiles the server, its embedded assets and migrations into one executable: dist/brokernet.
import { statSync } from 'node:fs'

const root = new URL('..', import.meta.url).pathname
const started = performance.now()
const proc = Bun.spawnSync(
  [
    process.execPath,
    'build',
    '--compile',
    '--minify',
    '--bytecode',
    '--format=esm',
    // The binary always runs in production mode: no stack traces or request echoes in answers.
    '--define',
    'process.env.NODE_ENV="production"',
    'src/server.ts',
    '--outfile',
    'dist/brokernet',
  ],
  { cwd: root, stdout: 'inherit', stderr: 'inherit' },
)
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1)
const mb = statSync(`${root}dist/brokernet`).size / 1024 / 1024
console.log(`dist/brokernet: ${mb.toFixed(1)} MB, built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
