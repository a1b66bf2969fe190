// Loads sharp (libvips) in the image process, never in the server: the server only talks to that process (pool.ts).
import type SharpModule from 'sharp'
import { mkdtempSync } from 'node:fs'
import Module from 'node:module'
import { tmpdir } from 'node:os'

export type Sharp = typeof SharpModule

let loaded: Promise<Sharp> | null = null

/**
 * sharp, ready: one libvips thread (the process does one photo at a time, on one core) and no operation cache.
 * Under `bun` it is the installed package. Inside the compiled binary its native parts are written out of the binary
 * first (embedded-native.ts) into `nativeDir` (DATA_DIR/.native), or into a fresh temporary folder when that cannot
 * be written or loaded (a read-only or noexec DATA_DIR); sharp's own `require` of its addon is pointed there.
 */
export function loadSharp(nativeDir: string | undefined): Promise<Sharp> {
  loaded ??= (async () => {
    if (Bun.isStandaloneExecutable) await prepareEmbedded(nativeDir)
    const sharp = (await import('sharp')).default
    sharp.concurrency(1)
    sharp.cache(false)
    return sharp
  })()
  return loaded
}

async function prepareEmbedded(nativeDir: string | undefined) {
  const { writeOutNative } = await import('./embedded-native')
  const failures: string[] = []
  for (const root of [nativeDir, () => mkdtempSync(`${tmpdir()}/brokernet-native-`)]) {
    if (!root) continue
    try {
      const addon = writeOutNative(typeof root === 'function' ? root() : root)
      // Loaded here, so a folder that cannot hold a loadable library (noexec) fails now, and the next one is tried.
      const exports = { exports: {} as unknown }
      process.dlopen(exports, addon)
      pointSharpAt(exports.exports)
      return
    } catch (e) {
      failures.push((e as Error).message)
    }
  }
  throw new Error(`sharp's native library could not be written out and loaded: ${failures.join('; ')}`)
}

/** sharp asks for `@img/sharp-<platform>/sharp.node`, which is not on disk beside a binary copied alone. */
function pointSharpAt(addon: unknown) {
  const request = '@img/sharp-linux-x64/sharp.node'
  const key = `/$bunfs/brokernet-embedded/${request}`
  const m = Module as unknown as { _resolveFilename: (r: string, ...rest: unknown[]) => string; _cache: Record<string, unknown> }
  const resolve = m._resolveFilename
  m._resolveFilename = function (r: string, ...rest: unknown[]) {
    return r === request ? key : resolve.call(this, r, ...rest)
  }
  m._cache[key] = { id: key, filename: key, loaded: true, exports: addon }
}
