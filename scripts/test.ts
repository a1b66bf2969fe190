// Runs every suite (unit, API, browser, binary) with bun test and ends with one line: "N passed, N failed".
import { ensureChromium } from './ensure-chromium'

const args = process.argv.slice(2)
ensureChromium() // browser tests fail with its message when it is missing; the others still run

// The type check counts as one more test: a type error fails the run like any other.
const typecheck = Bun.spawnSync([process.execPath, 'x', 'tsc', '--noEmit', '-p', '.'], { stdout: 'inherit', stderr: 'inherit' })
const typecheckPassed = typecheck.exitCode === 0
console.log(typecheckPassed ? '(pass) typecheck' : '(fail) typecheck')

const proc = Bun.spawn([process.execPath, 'test', '--timeout', '120000', ...args], {
  stdout: 'pipe',
  stderr: 'pipe',
  env: { ...process.env, FORCE_COLOR: '0' },
})

let tail = ''
async function relay(stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) {
  const decoder = new TextDecoder()
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true })
    out.write(text)
    tail = (tail + text).slice(-4000)
  }
}
await Promise.all([relay(proc.stdout, process.stdout), relay(proc.stderr, process.stderr)])
const code = await proc.exited

const passed = Number(/^\s*(\d+) pass\s*$/m.exec(tail)?.[1] ?? 0)
const failed = Number(/^\s*(\d+) fail\s*$/m.exec(tail)?.[1] ?? 0)
// A crash before the summary counts as a failure, so the line never reads green by accident.
const reportedFailed = code !== 0 && failed === 0 ? 1 : failed
console.log(`${passed + (typecheckPassed ? 1 : 0)} passed, ${reportedFailed + (typecheckPassed ? 0 : 1)} failed`)
process.exit(code === 0 && passed > 0 && typecheckPassed ? 0 : 1)
