import { brotliDecompressSync } from 'node:zlib'

/**
 * An answer's text whatever its Content-Encoding: a request that names its Accept-Encoding gets the bytes as sent,
 * in process and from fetch alike (fetch decodes only what it asked for itself).
 */
export async function decodedText(res: Response): Promise<string> {
  const body = new Uint8Array(await res.arrayBuffer())
  const coding = res.headers.get('content-encoding')
  const plain = coding === 'br' ? new Uint8Array(brotliDecompressSync(body)) : coding === 'gzip' ? Bun.gunzipSync(body) : body
  return new TextDecoder().decode(plain)
}
