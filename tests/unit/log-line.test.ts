import { afterAll, expect, test } from 'bun:test'
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LOG_BUFFER_BYTES, LogBuffer } from '../../src/platform/http/log-buffer'
import { createLogger } from '../../src/platform/http/request-log'

// Issue 36: the request log's line is written without pino (Logger.line), into the buffer that encodes lines as they
// come (src/platform/http/log-buffer.ts). It must be the line pino would have written, and reach the file whole.
const dir = mkdtempSync(join(tmpdir(), 'log-line-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":"T"')

test('a line written without pino is the line pino writes for the same fields: same keys in the same order, same text', () => {
  const written: string[] = []
  const logger = createLogger('info', (line) => void written.push(line))
  // Text a client chose (an unknown path, an id): quotes, a backslash, line breaks and separators stay inside the line.
  const fields = { method: 'GET', route: '/api/"x"\\y\n\u2028z', status: 404, duration_ms: 0.25, user_id: null, request_id: 'é-1' }
  logger.line('warn', fields)
  logger.warn(fields)
  expect(written).toHaveLength(2)
  expect(withoutTime(written[0]!)).toBe(withoutTime(written[1]!))
  expect(written[0]!.endsWith('\n')).toBe(true)
  expect(written[0]!.slice(0, -1)).not.toContain('\n')
  const parsed = JSON.parse(written[0]!)
  expect(Object.keys(parsed)).toEqual(['level', 'time', ...Object.keys(fields)])
  expect(parsed).toMatchObject({ level: 'warn', ...fields })
  expect(new Date(parsed.time).toISOString()).toBe(parsed.time)
  // Fields or none, the line is JSON.
  logger.line('info', {})
  expect(JSON.parse(written[2]!)).toMatchObject({ level: 'info' })
})

test('the buffer writes every line whole and in order: multi-byte text, lines across the flush threshold, a line larger than the buffer', () => {
  const file = join(dir, 'out.log')
  const fd = openSync(file, 'w')
  const buffer = new LogBuffer(fd)
  const lines: string[] = []
  for (let i = 0; i < 2000; i++) lines.push(`{"n":${i},"text":"${'é€😀'.repeat(i % 40)}"}\n`)
  // Larger than the buffer in characters, and in bytes only (a character of € is three bytes).
  lines.splice(1000, 0, `{"big":"${'ü'.repeat(LOG_BUFFER_BYTES)}"}\n`, `{"wide":"${'€'.repeat(LOG_BUFFER_BYTES / 2)}"}\n`)
  for (const line of lines) buffer.write(line)
  buffer.close()
  closeSync(fd)
  expect(readFileSync(file, 'utf8')).toBe(lines.join(''))
})
