// `brokernet image-check FILE [--out=DIR] [--json]`: one photo through the whole pipeline, image process included,
// for an operator checking that a binary on a new machine handles photos (and for tests/binary-images.test.ts).
// Not in the help: a tool, not a feature. Exit codes: 0 processed, 1 refused or unavailable, 2 a usage mistake.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createImagePool } from './index'
import { ImageRefused, ImagesUnavailable } from './refusal'

export const IMAGE_CHECK_USAGE = 'Usage: brokernet image-check FILE [--out=DIR] [--json]'

export async function imageCheck(args: string[], config: { dataDir: string }, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const json = args.includes('--json')
  const outDir = args.find((a) => a.startsWith('--out='))?.slice('--out='.length)
  const files = args.filter((a) => !a.startsWith('--'))
  if (files.length !== 1 || args.some((a) => a.startsWith('--') && a !== '--json' && !a.startsWith('--out='))) {
    err(IMAGE_CHECK_USAGE)
    return 2
  }
  let bytes: Uint8Array
  try {
    bytes = readFileSync(files[0]!)
  } catch (e) {
    err(`Cannot read ${files[0]}: ${(e as Error).message}`)
    return 1
  }
  const pool = createImagePool(config, { onProblem: (m) => err(m) })
  const started = performance.now()
  try {
    const photo = await pool.process(bytes)
    const ms = Math.round(performance.now() - started)
    if (outDir) {
      mkdirSync(outDir, { recursive: true })
      for (const v of [photo.thumb, photo.large]) writeFileSync(join(outDir, v.name), v.bytes)
    }
    const size = (v: typeof photo.thumb) => ({ name: v.name, width: v.width, height: v.height, bytes: v.bytes.length, type: v.type })
    const result = { ok: true, source: photo.source, thumb: size(photo.thumb), large: size(photo.large), phash: photo.phash, sha256: photo.sha256, ms, cpuMs: Math.round(pool.lastCpuMs) }
    if (json) out(JSON.stringify(result))
    else
      out(
        `${photo.source.format.toUpperCase()} ${photo.source.width} × ${photo.source.height} → large ${photo.large.width} × ${photo.large.height} (${photo.large.bytes.length} B), ` +
          `thumbnail ${photo.thumb.width} × ${photo.thumb.height} (${photo.thumb.bytes.length} B), dHash ${photo.phash}, in ${ms} ms${outDir ? `; written to ${outDir}` : ''}`,
      )
    return 0
  } catch (e) {
    if (!(e instanceof ImageRefused || e instanceof ImagesUnavailable)) throw e
    const code = e instanceof ImageRefused ? e.code : 'unavailable'
    if (json) out(JSON.stringify({ ok: false, status: e.status, code, detail: e.detail }))
    err(`Refused (${e.status} ${code}): ${e.detail}${e instanceof ImagesUnavailable && e.reason ? ` (${e.reason})` : ''}`)
    return 1
  } finally {
    await pool.close()
  }
}
