import { afterAll, beforeAll, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PLANTED } from './support/image-fixtures'

// The image pipeline inside dist/brokernet copied ALONE into an empty folder (no node_modules): sharp's addon and
// libvips, libheif's WebAssembly and the image process all come out of the one file (src/platform/images).
const root = new URL('..', import.meta.url).pathname
let dir: string

beforeAll(() => {
  // `bun run test` builds once and says where (BROKERNET_BUILT); alone, this file builds.
  let built = process.env.BROKERNET_BUILT
  if (!built) {
    const build = Bun.spawnSync([process.execPath, 'scripts/build-binary.ts'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
    if (build.exitCode !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`)
    built = join(root, 'dist/brokernet')
  }
  dir = mkdtempSync(join(tmpdir(), 'brokernet-bin-images-'))
  copyFileSync(built, join(dir, 'brokernet'))
  Bun.spawnSync(['chmod', '+x', join(dir, 'brokernet')])
  const made = Bun.spawnSync([process.execPath, join(root, 'tests/support/image-fixtures.ts'), join(dir, 'in')], { stdout: 'pipe', stderr: 'pipe' })
  if (made.exitCode !== 0) throw new Error(`fixtures: ${made.stderr}`)
  copyFileSync(join(root, 'tests/fixtures/images/quadrants-irot90.heic'), join(dir, 'in/turned.heic'))
}, 240_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** `brokernet image-check FILE --json …` run from the folder holding only the binary, its data and the inputs. */
function imageCheck(...args: string[]) {
  const run = Bun.spawnSync([join(dir, 'brokernet'), 'image-check', ...args, '--json'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, DATA_DIR: join(dir, 'data') },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const line = run.stdout.toString().trim().split('\n').at(-1) ?? ''
  return { code: run.exitCode, result: line.startsWith('{') ? JSON.parse(line) : null, stderr: run.stderr.toString() }
}

test('the binary alone turns a 12 MP phone JPEG into both WebP sizes, upright, with no metadata left', () => {
  const { code, result, stderr } = imageCheck('in/photo.jpg', '--out=out')
  expect(stderr).toBe('')
  expect(code).toBe(0)
  expect(result).toMatchObject({ ok: true, source: { format: 'jpeg', width: 4032, height: 3024 } })
  expect([result.large.width, result.large.height, result.thumb.width, result.thumb.height]).toEqual([1200, 1600, 240, 320])
  expect(readdirSync(join(dir, 'out')).sort()).toEqual([result.large.name, result.thumb.name].sort())
  for (const v of [result.large, result.thumb]) {
    const bytes = readFileSync(join(dir, 'out', v.name))
    expect(bytes.length).toBe(v.bytes)
    expect(bytes.subarray(0, 4).toString('latin1') + bytes.subarray(8, 12).toString('latin1')).toBe('RIFFWEBP')
    expect(v.name).toBe(`${new Bun.CryptoHasher('sha256').update(bytes).digest('hex').slice(0, 32)}.webp`)
    for (const planted of Object.values(PLANTED)) expect(bytes.includes(planted)).toBe(false)
    expect(bytes.includes('Exif')).toBe(false)
  }
  // sharp's native parts were written out of the binary under DATA_DIR, once.
  const native = join(dir, 'data/.native')
  const [folder] = readdirSync(native)
  expect(statSync(join(native, folder!, 'sharp-libvips-linux-x64/lib/libvips-cpp.so.8.18.7')).size).toBeGreaterThan(10_000_000)
  expect(statSync(join(native, folder!, 'sharp-linux-x64/lib/sharp-linux-x64-0.35.5.node')).size).toBeGreaterThan(100_000)
}, 120_000)

test('the binary alone decodes an iPhone-style HEIC (rotation applied) and reuses the native files it wrote', () => {
  const library = join(dir, 'data/.native', readdirSync(join(dir, 'data/.native'))[0]!, 'sharp-libvips-linux-x64/lib/libvips-cpp.so.8.18.7')
  const before = statSync(library).mtimeMs
  const { code, result } = imageCheck('in/turned.heic')
  expect(code).toBe(0)
  expect(result).toMatchObject({ ok: true, source: { format: 'heic', width: 96, height: 64 }, large: { width: 64, height: 96 } })
  expect(statSync(library).mtimeMs).toBe(before)
  expect(readdirSync(join(dir, 'data/.native'))).toHaveLength(1)
}, 120_000)

test('the binary refuses an SVG and an animated GIF by their bytes (415) and a truncated JPEG (422), exit code 1', async () => {
  await Bun.write(join(dir, 'in/drawing.jpg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
  const svg = imageCheck('in/drawing.jpg')
  expect(svg.code).toBe(1)
  expect(svg.result).toMatchObject({ ok: false, status: 415, code: 'unsupported-type' })
  expect(svg.result.detail).toContain('SVG')
  expect(imageCheck('in/animated.gif').result).toMatchObject({ ok: false, status: 415 })
  const jpg = readFileSync(join(dir, 'in/photo.jpg'))
  await Bun.write(join(dir, 'in/cut.jpg'), jpg.subarray(0, jpg.length >> 1))
  expect(imageCheck('in/cut.jpg').result).toMatchObject({ ok: false, status: 422, code: 'undecodable' })
}, 120_000)
