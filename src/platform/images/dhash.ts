// A perceptual hash for finding the same photo uploaded again, resized, re-compressed or lightly edited: the
// difference hash (dHash). The picture, grey, squeezed to 9 × 8 pixels; each bit says whether a pixel is brighter than
// its right-hand neighbour. Two photos whose hashes differ in at most ~10 of the 64 bits are very likely the same
// picture; unrelated photos differ in about 32.

/** 64 bits from 72 grey values (9 columns × 8 rows), as 16 hex digits. */
export function dHash(grey: Uint8Array): string {
  if (grey.length !== 72) throw new Error(`dHash wants 9 × 8 grey pixels, got ${grey.length} values`)
  let hex = ''
  for (let row = 0; row < 8; row++) {
    let byte = 0
    for (let col = 0; col < 8; col++) byte = (byte << 1) | (grey[row * 9 + col]! > grey[row * 9 + col + 1]! ? 1 : 0)
    hex += byte.toString(16).padStart(2, '0')
  }
  return hex
}

/** How many of the 64 bits two hashes differ in. */
export function hammingDistance(a: string, b: string): number {
  if (!/^[0-9a-f]{16}$/.test(a) || !/^[0-9a-f]{16}$/.test(b)) throw new Error('hammingDistance wants two 16-hex-digit hashes')
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`)
  let n = 0
  for (; x; x &= x - 1n) n++
  return n
}
