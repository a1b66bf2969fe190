// Compiles the server, its embedded assets and migrations into one executable: dist/brokernet (or the path given:
// `bun scripts/build-binary.ts /tmp/brokernet`). A second argument compiles another entry point with exactly the same
// flags (the benchmark's hello-world: `bun scripts/build-binary.ts /tmp/hello /tmp/hello.ts`).
//
// Not minified, on purpose (docs/decisions/003-unminified-binary.md): Elysia decides what each handler reads from the
// request by reading the handler's source text, and minified text makes it miss `headers`, so every signed-in route
// answered 500. Minifying saved 1.7 MB of 122 MB and no start-up time.
//
// Built for a quick start (docs/decisions/004-lazy-start.md):
//  - --splitting: what the app imports lazily (pages, the OpenAPI generator, nodemailer, the xlsx writer, the demo
//    seed) becomes chunks of their own inside the executable, loaded when first imported, not at start;
//  - --compile-jit-policy: JavaScriptCore's tier-up thresholds are raised while the run-once start-up code runs (it
//    stays in the interpreter instead of being compiled for nothing); src/server.ts sets the normal policy back
//    100 ms after it listens.
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { TRANSPORT_HEAD_FLAG } from '../src/platform/http/transport'

const root = new URL('..', import.meta.url).pathname
/** Tier-up thresholds ×100 during start-up: in effect no JIT until src/server.ts calls Bun.unsafe.setJITPolicy(1). */
const START_JIT_POLICY = 100
const outfile = resolve(root, process.argv[2] ?? 'dist/brokernet')
const entry = process.argv[3] ? resolve(process.argv[3]) : 'src/main.ts'
/**
 * Workers' entry files, bundled beside the server (a Worker's code must be an entry point of the executable). Their
 * place inside it is relative to src/, the folder the entries share: src/modules/notifications/plugin.ts names it so.
 */
const workerEntries = process.argv[3] ? [] : ['src/modules/notifications/push-thread.ts']
const started = performance.now()
const proc = Bun.spawnSync(
  [
    process.execPath,
    'build',
    '--compile',
    '--bytecode',
    '--format=esm',
    '--splitting',
    `--compile-jit-policy=${START_JIT_POLICY}`,
    // Bun's limit on request heads, far above the app's own (src/platform/http/transport.ts), so a 431 is JSON.
    `--compile-exec-argv=${TRANSPORT_HEAD_FLAG}`,
    // The binary always runs in production mode: no stack traces or request echoes in answers.
    '--define',
    'process.env.NODE_ENV="production"',
    entry,
    ...workerEntries,
    '--outfile',
    outfile,
  ],
  { cwd: root, stdout: 'inherit', stderr: 'inherit' },
)
if (proc.exitCode !== 0) process.exit(proc.exitCode ?? 1)
const mb = statSync(outfile).size / 1024 / 1024
console.log(`${outfile}: ${mb.toFixed(1)} MB, built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
