// What a listing photo may be and what it becomes (issue 34). One place, so the sniff, the decoder's own guard, the
// tests and the decision record (docs/decisions/036-images.md) agree.

/** An upload above this is refused before anything reads it (413). 15 MiB: a 48 MP phone HEIC is about 8 MB. */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024

/**
 * The largest image its header may announce, refused before decoding (a decompression bomb: a tiny file that says
 * 50,000 × 50,000). 64 megapixels takes an iPhone's 48 MP and the 50 MP modes of other phones; 15 MB stops the larger
 * sensors anyway.
 */
export const MAX_PIXELS = 64_000_000
/** The longest side, whatever the area: a 1 × 200,000 strip is a few hundred thousand pixels but no photo. */
export const MAX_SIDE = 20_000

/** The two sizes kept: the longest side at most this (never enlarged). */
export const LARGE_SIDE = 1600
export const THUMB_SIDE = 320

/** Budgets for a typical photo; qualities tried in turn until the result fits (a noisy photo gets the lower ones). */
export const LARGE_MAX_BYTES = 250 * 1024
export const THUMB_MAX_BYTES = 20 * 1024
export const LARGE_QUALITIES = [78, 64, 50] as const
export const THUMB_QUALITIES = [72, 58, 44] as const
/**
 * libwebp's effort (0–6). Its default, 4, took the 12 MP photo to 376 ms of CPU (3: the same); 2 takes it to 289 ms
 * for 3% more bytes, which keeps the 400 ms target on a busy machine (decision record 036-images).
 */
export const WEBP_EFFORT = 2

/** A job that takes longer is given up and its process killed: a 12 MP photo takes under half a second. */
export const JOB_TIMEOUT_MS = 60_000
/** Jobs waiting per process beyond the one it works on; more are refused at once (503) instead of queueing for minutes. */
export const MAX_QUEUED_PER_PROCESS = 8
/** An image process with nothing to do exits after this, giving its memory (~150–250 MB after a 12 MP photo) back. */
export const IDLE_EXIT_MS = 60_000
/** It is also replaced after this many jobs: libvips and malloc arenas keep what a large photo made them take. */
export const JOBS_PER_PROCESS = 200
