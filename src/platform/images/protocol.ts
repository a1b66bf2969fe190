// What the server and its image processes say to each other over Bun's IPC channel (structured clone, so bytes
// travel as bytes). One photo at a time per process: the pool sends the next only after the answer.
import type { ImageRefused } from './refusal'
import type { ProcessedPhoto } from './types'

/** Where the binary writes sharp's native parts (sharp-loader.ts); set by the pool from DATA_DIR. */
export const NATIVE_DIR_ENV = 'BROKERNET_IMAGE_NATIVE_DIR'

/** A photo to check and encode; or, with `card`, one of our own stored WebP images to make a preview card of. */
export type WorkerRequest = { id: number; bytes: Uint8Array; card?: true }
export type WorkerMessage =
  | { ready: true }
  | { ready: false; error: string }
  | { id: number; ok: true; photo: ProcessedPhoto; cpuMs: number }
  | { id: number; ok: true; card: Uint8Array; cpuMs: number }
  | { id: number; ok: false; refused?: { code: ImageRefused['code']; detail: string }; error?: string }
