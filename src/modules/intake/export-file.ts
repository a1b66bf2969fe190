import { invalid, tooLarge } from '../../platform/errors'

/**
 * A WhatsApp "Export chat" file as text (issue 30): the `.txt` WhatsApp writes, or the `.zip` it makes "without
 * media" (iPhone: `_chat.txt` inside; Android: `WhatsApp Chat with …txt`). Judged by its bytes, not its name: a zip by
 * its magic bytes and entries, text by being UTF-8 with no control characters but line ends and tabs.
 */
export const EXPORT_MAX_BYTES = 10 * 1024 * 1024
/** What a zip may unpack to: an export without media is text a few times its zip's size; more is a bomb. */
export const EXPORT_MAX_UNZIPPED = 20 * 1024 * 1024

export const EXPORT_ERRORS = {
  empty: 'The file is empty: export the chat again from WhatsApp (Export chat, Without media)',
  tooLarge: `A chat export is at most ${EXPORT_MAX_BYTES / 1024 / 1024} MB`,
  notText: 'This is not a WhatsApp chat export: choose the .txt or the .zip WhatsApp made (Export chat, Without media)',
  zipWithoutChat: 'This zip holds no chat: choose the .zip WhatsApp made (Export chat, Without media)',
  zipTooLarge: `This zip unpacks to more than ${EXPORT_MAX_UNZIPPED / 1024 / 1024} MB: export the chat without media`,
  zipUnreadable: 'This zip could not be read: export the chat again from WhatsApp',
} as const

const ZIP = [0x50, 0x4b, 0x03, 0x04]
const EMPTY_ZIP = [0x50, 0x4b, 0x05, 0x06]

export async function exportText(file: File | undefined): Promise<string> {
  if (!file || file.size === 0) throw invalid(EXPORT_ERRORS.empty)
  if (file.size > EXPORT_MAX_BYTES) throw tooLarge(EXPORT_ERRORS.tooLarge)
  const bytes = await file.bytes()
  const starts = (magic: number[]) => magic.every((b, i) => bytes[i] === b)
  if (starts(EMPTY_ZIP)) throw invalid(EXPORT_ERRORS.zipWithoutChat)
  // fflate is imported for the first zip, not at start: it builds its tables when loaded (~2 % of the binary's start-up
  // CPU; issue 36).
  return asText(starts(ZIP) ? unzipChat(bytes, await import('fflate')) : bytes)
}

/** UTF-8 text with no control characters but line ends and tabs (a BOM aside), else not a chat export. */
function asText(bytes: Uint8Array): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw invalid(EXPORT_ERRORS.notText)
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) throw invalid(EXPORT_ERRORS.notText)
  if (!text.trim()) throw invalid(EXPORT_ERRORS.empty)
  return text
}

/**
 * The chat's text from WhatsApp's zip: the `.txt` entry (`_chat.txt`, or the largest), unpacked as a stream and
 * stopped once the entries together pass EXPORT_MAX_UNZIPPED, whatever sizes the zip declares.
 */
function unzipChat(bytes: Uint8Array, { Unzip, UnzipInflate, UnzipPassThrough }: typeof import('fflate')): Uint8Array {
  const chats: { name: string; chunks: Uint8Array[]; size: number }[] = []
  let total = 0
  let failure: string | null = null
  const unzip = new Unzip((file) => {
    if (!/\.txt$/i.test(file.name) || /(^|\/)__MACOSX\//.test(file.name)) return
    const entry = { name: file.name, chunks: [] as Uint8Array[], size: 0 }
    chats.push(entry)
    file.ondata = (err, chunk) => {
      if (failure) return
      if (err) {
        failure = EXPORT_ERRORS.zipUnreadable
        return
      }
      total += chunk.length
      entry.size += chunk.length
      if (total > EXPORT_MAX_UNZIPPED) {
        failure = EXPORT_ERRORS.zipTooLarge
        file.terminate()
        return
      }
      entry.chunks.push(chunk)
    }
    try {
      file.start()
    } catch {
      failure = EXPORT_ERRORS.zipUnreadable
    }
  })
  unzip.register(UnzipInflate)
  unzip.register(UnzipPassThrough)
  try {
    // Pushed in slices, so a bomb stops being unpacked soon after it passes the limit.
    for (let at = 0; at < bytes.length && !failure; at += 64 * 1024) unzip.push(bytes.subarray(at, at + 64 * 1024), at + 64 * 1024 >= bytes.length)
  } catch {
    failure ??= EXPORT_ERRORS.zipUnreadable
  }
  if (failure) throw invalid(failure)
  const chat = chats.find((c) => /(^|\/)_chat\.txt$/i.test(c.name)) ?? [...chats].sort((a, b) => b.size - a.size)[0]
  if (!chat || chat.size === 0) throw invalid(EXPORT_ERRORS.zipWithoutChat)
  const out = new Uint8Array(chat.size)
  let at = 0
  for (const c of chat.chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}
