// sharp's native parts, embedded in the compiled binary as plain files (docs/decisions/036-images.md): its Node-API
// addon and the libvips it links (one shared library holding libvips and every codec it uses, 18.7 MB). Imported only
// inside the binary (sharp-loader.ts): under `bun`, importing a .node file this way throws, and sharp loads from
// node_modules as usual. The paths name the installed versions; a sharp upgrade that renames them fails the build,
// and tests/unit/images.test.ts checks they are the ones sharp itself loads.
import addonFile from '../../../node_modules/@img/sharp-linux-x64/lib/sharp-linux-x64-0.35.5.node' with { type: 'file' }
import libvipsFile from '@img/sharp-libvips-linux-x64/binary' with { type: 'file' }
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

/**
 * Writes the addon and libvips under `root` once (a later start finds them there), laid out as the addon's run path
 * expects ($ORIGIN/../../sharp-libvips-linux-x64/lib), and answers the addon's path. The folder is named after the
 * embedded files' names, which carry their content hashes: another build's files are never taken for this one's.
 */
export function writeOutNative(root: string): string {
  const dir = join(root, `sharp-0.35.5-${Bun.hash(basename(addonFile) + basename(libvipsFile)).toString(36)}`)
  const addon = join(dir, 'sharp-linux-x64/lib/sharp-linux-x64-0.35.5.node')
  // The name the addon asks the dynamic linker for (its DT_NEEDED), whatever Bun named the embedded copy.
  const libvips = join(dir, 'sharp-libvips-linux-x64/lib/libvips-cpp.so.8.18.7')
  for (const [from, to] of [
    [libvipsFile, libvips],
    [addonFile, addon],
  ] as const) {
    const bytes = readFileSync(from)
    if (existsSync(to) && statSync(to).size === bytes.length) continue
    mkdirSync(dirname(to), { recursive: true, mode: 0o700 })
    // Written aside and renamed: another process (WORKERS > 1) never loads a half-written library.
    const part = `${to}.${process.pid}.part`
    writeFileSync(part, bytes, { mode: 0o500 })
    chmodSync(part, 0o500)
    renameSync(part, to)
  }
  return addon
}
