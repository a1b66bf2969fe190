import type { Sniffed } from './sniff'

/** One stored size of a photo: a new WebP encoding, named by its content. */
export interface PhotoVariant {
  bytes: Uint8Array
  width: number
  height: number
  type: 'image/webp'
  /** SHA-256 of `bytes`, hex. */
  sha256: string
  /** The file name to store it under: the first 128 bits of its SHA-256 (the same photo twice is one file). */
  name: string
}

export interface ProcessedPhoto {
  /** The longest side at most 320 px. */
  thumb: PhotoVariant
  /** The longest side at most 1,600 px (never enlarged). */
  large: PhotoVariant
  /** 64-bit difference hash (dHash) of the upright picture, 16 hex digits: near-duplicates differ in few bits (dhash.ts). */
  phash: string
  /** SHA-256 of the upload as received, hex: the same file sent twice (the upload itself is not kept). */
  sha256: string
  /** What the upload was, by its bytes, and the size its header announced (before turning upright). */
  source: Sniffed
}
