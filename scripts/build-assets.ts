// Builds what browsers download (CSS, the island client, Swagger UI, public files) into generated/assets
// with content-hashed names, plus gzip copies, and writes generated/assets.ts: a module that imports each
// file `with { type: 'file' }`, so `bun build --compile` embeds them and the server serves them from memory.
import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, extname, join } from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import { appIcons } from './app-icons'

const root = new URL('..', import.meta.url).pathname
const out = join(root, 'generated')
const assetsDir = join(out, 'assets')
rmSync(out, { recursive: true, force: true })
mkdirSync(assetsDir, { recursive: true })

const started = performance.now()
type Entry = { url: string; file: string; type: string; immutable: boolean; key?: string }
const entries: Entry[] = []

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
}

function addHashed(key: string, bytes: Uint8Array, name: string) {
  const ext = extname(name)
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10)
  const file = `${basename(name, ext)}-${hash}${ext}`
  writeFileSync(join(assetsDir, file), bytes)
  entries.push({ key, url: `/assets/${file}`, file, type: TYPES[ext] ?? 'application/octet-stream', immutable: true })
}

// 1. Tailwind 4 + daisyUI, minified.
const cssTmp = join(out, 'app.css')
const tw = Bun.spawnSync(
  [process.execPath, join(root, 'node_modules/@tailwindcss/cli/dist/index.mjs'), '-i', join(root, 'styles/app.css'), '-o', cssTmp, '--minify'],
  { cwd: root, stdout: 'pipe', stderr: 'pipe' },
)
if (tw.exitCode !== 0) {
  console.error(tw.stderr.toString())
  process.exit(1)
}
addHashed('css', readFileSync(cssTmp), 'app.css')
rmSync(cssTmp)

// 2. The island client: a small entry plus one chunk per island and shared chunks (code splitting), so a page
// downloads only the code of the islands it holds. Bun names every output by its content hash already.
const client = await Bun.build({
  entrypoints: [join(root, 'islands/client.tsx')],
  target: 'browser',
  format: 'esm',
  splitting: true,
  // Small chunks without top-level side effects are folded into a chunk their importers load anyway: each file is
  // compressed alone (a small one badly) and is one more request. Measured per page (scripts needed, brotli): 4 KB is
  // best; larger values fold bigger chunks into ones other pages load (a match card into the listings page). The
  // listings page: 39 → 31 files (docs/decisions/049-phone-last-kilobytes.md).
  minChunkSize: 4096,
  minify: true,
  sourcemap: 'none',
  // The chunk graph: each island's chunks, announced by the pages that hold it (below).
  metafile: true,
  naming: { entry: '[name]-[hash].[ext]', chunk: 'chunk-[hash].[ext]' },
  define: { 'process.env.NODE_ENV': '"production"' },
})
if (!client.success) {
  for (const log of client.logs) console.error(log)
  process.exit(1)
}
for (const output of client.outputs) {
  const file = basename(output.path)
  writeFileSync(join(assetsDir, file), new Uint8Array(await output.arrayBuffer()))
  entries.push({
    key: output.kind === 'entry-point' ? 'client' : undefined,
    url: `/assets/${file}`,
    file,
    type: TYPES['.js']!,
    immutable: true,
  })
}

// Which chunks each island needs: the output of its `import()` in islands/loaders.ts and every chunk that output
// imports statically, and the same for the entry. A page names them all in `<link rel="modulepreload">`
// (src/platform/pages/document.tsx), so the browser fetches them at once instead of learning of each only once its
// importer has arrived and run (docs/decisions/040-phone-speed.md).
type MetaOutput = { imports: { path: string; kind: string }[]; entryPoint?: string }
const meta = (typeof client.metafile === 'string' ? JSON.parse(client.metafile) : client.metafile) as { outputs: Record<string, MetaOutput> }
const outputKey = (p: string) => basename(p)
const outputs = new Map(Object.entries(meta.outputs).map(([k, v]) => [outputKey(k), v]))
const staticGraph = (file: string, seen: string[] = []): string[] => {
  if (seen.includes(file)) return seen
  seen.push(file)
  for (const i of outputs.get(file)!.imports) if (i.kind === 'import-statement') staticGraph(outputKey(i.path), seen)
  return seen
}
const outputOf = (source: string) => [...outputs].find(([, o]) => o.entryPoint === source)?.[0]
const clientFile = outputOf('islands/client.tsx')!
const clientGraph = staticGraph(clientFile)
const loaderSource = readFileSync(join(root, 'islands/loaders.ts'), 'utf8')
const islandChunks: Record<string, string[]> = {}
for (const [, name, path] of loaderSource.matchAll(/(\w+): \(\) => import\('\.\/([^']+)'\)/g)) {
  const file = outputOf(`islands/${path}.tsx`) ?? outputOf(`islands/${path}.ts`)
  if (!file) throw new Error(`islands/loaders.ts: no output for ${name} (islands/${path})`)
  islandChunks[name!] = staticGraph(file).filter((f) => !clientGraph.includes(f)).map((f) => `/assets/${f}`)
}

// 3. Swagger UI from swagger-ui-dist (no CDN) and its start-up script (no inline script under our CSP).
const swaggerDist = join(root, 'node_modules/swagger-ui-dist')
addHashed('swaggerJs', readFileSync(join(swaggerDist, 'swagger-ui-bundle.js')), 'swagger-ui-bundle.js')
addHashed('swaggerCss', readFileSync(join(swaggerDist, 'swagger-ui.css')), 'swagger-ui.css')
addHashed('swaggerInit', readFileSync(join(root, 'src/modules/docs/swagger-init.js')), 'swagger-init.js')
// Issue 33: the installed app's icons, drawn here, and the service worker's code (served at /sw.js with its version
// and the files to keep offline put in front: src/modules/pwa/).
for (const icon of appIcons()) addHashed(icon.key, icon.bytes, icon.name)
addHashed('serviceWorker', readFileSync(join(root, 'src/modules/pwa/service-worker.js')), 'service-worker.js')

// 4. public/: stable names, short cache.
for (const name of readdirSync(join(root, 'public'))) {
  copyFileSync(join(root, 'public', name), join(assetsDir, name))
  entries.push({ url: `/${name}`, file: name, type: TYPES[extname(name)] ?? 'application/octet-stream', immutable: false })
}

// Brotli and gzip copies of text files, at their highest levels: browsers download a fraction of the bytes, and
// nothing is compressed per request. A copy is kept when it saves at least a tenth. Brotli 11 is slow (about a second
// for the 217 KB client) but runs once here; Swagger UI's 1.4 MB bundle, read by few, gets brotli 9.
const gzipped = new Set<string>()
const brotlied = new Set<string>()
for (const e of entries) {
  if (!/^(text|image\/svg)/.test(e.type)) continue
  const raw = readFileSync(join(assetsDir, e.file))
  const gz = Bun.gzipSync(raw, { level: 9 })
  if (gz.byteLength < raw.byteLength * 0.9) {
    writeFileSync(join(assetsDir, e.file + '.gz'), gz)
    gzipped.add(e.file)
  }
  const quality = raw.byteLength > 512 * 1024 ? 9 : 11
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength } })
  if (br.byteLength < raw.byteLength * 0.9) {
    writeFileSync(join(assetsDir, e.file + '.br'), br)
    brotlied.add(e.file)
  }
}

const lines = ['// Generated by scripts/build-assets.ts. Do not edit.']
entries.forEach((e, i) => {
  lines.push(`import f${i} from './assets/${e.file}' with { type: 'file' }`)
  if (gzipped.has(e.file)) lines.push(`import g${i} from './assets/${e.file}.gz' with { type: 'file' }`)
  if (brotlied.has(e.file)) lines.push(`import b${i} from './assets/${e.file}.br' with { type: 'file' }`)
})
lines.push('', 'export type AssetFile = { path: string; gzip?: string; br?: string; type: string; immutable: boolean }')
lines.push('export const assetFiles: Record<string, AssetFile> = {')
entries.forEach((e, i) =>
  lines.push(
    `  '${e.url}': { path: f${i}, ${gzipped.has(e.file) ? `gzip: g${i}, ` : ''}${brotlied.has(e.file) ? `br: b${i}, ` : ''}type: '${e.type}', immutable: ${e.immutable} },`,
  ),
)
lines.push('}', '', 'export const assetUrls = {')
for (const e of entries) if (e.key) lines.push(`  ${e.key}: '${e.url}',`)
lines.push(`  favicon: '/favicon.svg',`, '} as const', '')
lines.push(
  '/** The chunks the entry imports (the entry first), which every page with islands needs. */',
  `export const clientScripts: readonly string[] = ${JSON.stringify(clientGraph.map((f) => `/assets/${f}`))}`,
  '/** Each island\'s chunks beyond the entry\'s: its `import()` in islands/loaders.ts and what that imports. */',
  `export const islandScripts: Readonly<Record<string, readonly string[]>> = ${JSON.stringify(islandChunks, null, 2)}`,
  '',
)
writeFileSync(join(out, 'assets.ts'), lines.join('\n'))

const size = (key: string) => {
  const e = entries.find((x) => x.key === key)!
  return `${e.url} ${readFileSync(join(assetsDir, e.file)).byteLength} B`
}
const chunks = entries.filter((e) => e.file.startsWith('chunk-'))
const chunkBytes = chunks.reduce((n, e) => n + readFileSync(join(assetsDir, e.file)).byteLength, 0)
console.log(`assets built in ${Math.round(performance.now() - started)} ms: ${size('css')}, ${size('client')} + ${chunks.length} chunks (${chunkBytes} B)`)
