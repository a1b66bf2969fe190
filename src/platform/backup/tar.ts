// A backup is one gzip-compressed tar file (POSIX ustar): any machine can list or unpack it with `tar xzf`, and no
// dependency is needed to write or read it. Only plain files are written and read; sizes past ustar's 8 GiB limit use
// the base-256 form GNU tar and bsdtar read too.
import { createReadStream, createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { createGunzip, createGzip } from 'node:zlib'

const BLOCK = 512

/** A file to put in the archive: its name there and where its bytes are on disk. */
export type TarSource = { name: string; path: string; bytes: number }

/** Writes `sources` in order into a new gzip-compressed tar at `file` (written in place; the caller renames it). */
export async function writeTarGz(file: string, sources: TarSource[], mtime = new Date()): Promise<void> {
  async function* entries() {
    for (const source of sources) {
      yield header(source.name, source.bytes, mtime)
      let written = 0
      for await (const chunk of Bun.file(source.path).stream()) {
        written += chunk.byteLength
        yield chunk
      }
      // A file that changed size while being read would leave the archive unreadable: refuse it instead.
      if (written !== source.bytes) throw new Error(`${source.name} changed while it was being archived`)
      const pad = (BLOCK - (written % BLOCK)) % BLOCK
      if (pad) yield new Uint8Array(pad)
    }
    yield new Uint8Array(BLOCK * 2) // the end of the archive: two empty blocks
  }
  await pipeline(Readable.from(entries()), createGzip({ level: 6 }), createWriteStream(file, { mode: 0o600 }))
}

/**
 * Reads a gzip-compressed tar and hands each file to `onEntry`, which answers where its bytes go (a writer) or null
 * to refuse the archive (it throws then). Anything but plain files and the end blocks is refused.
 */
export async function readTarGz(file: string, onEntry: (name: string, bytes: number) => EntrySink): Promise<void> {
  let buffer: Uint8Array = new Uint8Array(0)
  let current: { sink: EntrySink; left: number; pad: number } | null = null
  let ended = false

  async function consume(source: AsyncIterable<Uint8Array>) {
    for await (const chunk of source) {
      buffer = concat(buffer, chunk)
      for (;;) {
        if (ended) {
          buffer = new Uint8Array(0) // bytes after the end blocks (gzip's own padding by some tools) are ignored
          break
        }
        if (current) {
          if (current.left > 0) {
            if (buffer.length === 0) break
            const take = Math.min(current.left, buffer.length)
            await current.sink.write(buffer.subarray(0, take))
            current.left -= take
            buffer = buffer.subarray(take)
            continue
          }
          if (buffer.length < current.pad) break
          buffer = buffer.subarray(current.pad)
          await current.sink.end()
          current = null
          continue
        }
        if (buffer.length < BLOCK) break
        const block = buffer.subarray(0, BLOCK)
        buffer = buffer.subarray(BLOCK)
        if (block.every((b) => b === 0)) {
          ended = true
          continue
        }
        const entry = parseHeader(block)
        current = { sink: onEntry(entry.name, entry.size), left: entry.size, pad: (BLOCK - (entry.size % BLOCK)) % BLOCK }
      }
    }
  }
  await pipeline(createReadStream(file), createGunzip(), consume)
  if (current) throw new Error('the archive ends in the middle of a file: it is incomplete')
  if (!ended) throw new Error('the archive has no end marker: it is incomplete')
}

/** Where one entry's bytes go. */
export type EntrySink = { write(bytes: Uint8Array): Promise<void> | void; end(): Promise<void> | void }

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

const ascii = new TextEncoder()

function header(name: string, size: number, mtime: Date): Uint8Array {
  const h = new Uint8Array(BLOCK)
  const nameBytes = ascii.encode(name)
  if (nameBytes.length > 100) throw new Error(`archive name too long: ${name}`)
  h.set(nameBytes, 0)
  octal(h, 100, 8, 0o600)
  octal(h, 108, 8, 0)
  octal(h, 116, 8, 0)
  if (size < 0o77777777777) octal(h, 124, 12, size)
  else {
    // base-256: the first byte's high bit set, then the size big-endian
    h[124] = 0x80
    let n = BigInt(size)
    for (let i = 135; i > 124; i--) {
      h[i] = Number(n & 0xffn)
      n >>= 8n
    }
  }
  octal(h, 136, 12, Math.floor(mtime.getTime() / 1000))
  h[156] = 0x30 // '0': a regular file
  h.set(ascii.encode('ustar\u000000'), 257)
  // The checksum is the sum of the header's bytes with its own field read as spaces.
  h.fill(0x20, 148, 156)
  const sum = h.reduce((s, b) => s + b, 0)
  h.set(ascii.encode(sum.toString(8).padStart(6, '0') + '\u0000 '), 148)
  return h
}

function octal(h: Uint8Array, at: number, width: number, value: number) {
  h.set(ascii.encode(value.toString(8).padStart(width - 1, '0') + '\u0000'), at)
}

function parseHeader(h: Uint8Array): { name: string; size: number } {
  const stored = parseOctal(h.subarray(148, 156))
  const copy = h.slice()
  copy.fill(0x20, 148, 156)
  if (copy.reduce((s, b) => s + b, 0) !== stored) throw new Error('the archive is damaged (a header checksum does not match)')
  const type = h[156]
  // '0' or NUL: a regular file. Directories, links and the rest are never written by Brokernet.
  if (type !== 0x30 && type !== 0) throw new Error('the archive holds something other than plain files: it is not a Brokernet backup')
  const text = (a: Uint8Array) => new TextDecoder().decode(a.subarray(0, a.indexOf(0) === -1 ? a.length : a.indexOf(0)))
  const prefix = text(h.subarray(345, 500))
  const name = (prefix ? prefix + '/' : '') + text(h.subarray(0, 100))
  let size: number
  if (h[124]! & 0x80) {
    let n = 0n
    for (let i = 125; i < 136; i++) n = (n << 8n) | BigInt(h[i]!)
    size = Number(n)
  } else size = parseOctal(h.subarray(124, 136))
  return { name, size }
}

function parseOctal(field: Uint8Array): number {
  const text = new TextDecoder().decode(field).replace(/[\0 ]+$/, '').replace(/^[\0 ]+/, '')
  if (!/^[0-7]*$/.test(text)) throw new Error('the archive is damaged (a header field is not a number)')
  return text ? parseInt(text, 8) : 0
}
