import { describe, expect, test } from 'bun:test'
import { strFromU8, unzipSync } from 'fflate'
import { readSheet } from 'read-excel-file/node'
import {
  columnName,
  excelSerial,
  sheetNameFor,
  xlsxStream,
  xmlText,
  type XlsxColumn,
} from '../../src/modules/listings/xlsx'

type Row = { title: string | null; price: number | string | null; listed: Date | string | number | null }

const COLUMNS: XlsxColumn<Row>[] = [
  { header: 'Title', type: 'string', width: 30, value: (r) => r.title },
  { header: 'Price', type: 'number', value: (r) => r.price },
  { header: 'Listed', type: 'date', value: (r) => r.listed },
]

const TRICKY = `<&>"' Café 😀 a\u0001b\u0000c`
const ROWS: Row[] = [
  { title: TRICKY, price: 1234.5, listed: new Date(Date.UTC(2026, 10, 21)) },
  { title: null, price: null, listed: null },
  { title: 'Plain', price: -3, listed: new Date('2026-11-21T12:00:00Z') },
  { title: '  padded  ', price: '42', listed: '2026-11-21' },
]

// read-excel-file types a date cell as DateConstructor; at run time it is a Date.
function asDate(v: unknown): Date {
  if (!(v instanceof Date)) throw new Error(`not a Date: ${String(v)}`)
  return v
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** The XML of each <c> cell of a row, keyed by reference (A2, B2...). */
function cellsOfRow(sheet: string, row: number): Record<string, string> {
  const m = new RegExp(`<row r="${row}">(.*?)</row>`).exec(sheet)
  if (!m) throw new Error(`row ${row} not found`)
  const cells: Record<string, string> = {}
  for (const c of m[1].matchAll(/<c r="([A-Z]+\d+)"[^>]*>.*?<\/c>/g)) cells[c[1]] = c[0]
  return cells
}

const PARTS = [
  '[Content_Types].xml',
  '_rels/.rels',
  'xl/workbook.xml',
  'xl/_rels/workbook.xml.rels',
  'xl/styles.xml',
  'xl/worksheets/sheet1.xml',
]

describe('xlsxStream: package', async () => {
  const bytes = await bytesOf(xlsxStream([ROWS], COLUMNS, { sheetName: 'Listings: Nov/2026' }))
  const files = unzipSync(bytes)
  const text = (name: string) => strFromU8(files[name])
  const sheet = text('xl/worksheets/sheet1.xml')

  test('is a zip holding every part of a one-sheet workbook', () => {
    expect(bytes[0]).toBe(0x50) // PK
    expect(bytes[1]).toBe(0x4b)
    expect(Object.keys(files).sort()).toEqual([...PARTS].sort())
    // Type sniffers (file(1), file-type) look for [Content_Types].xml first.
    expect(strFromU8(bytes.subarray(30, 30 + '[Content_Types].xml'.length))).toBe('[Content_Types].xml')
    for (const name of PARTS) expect(text(name).startsWith('<?xml version="1.0" encoding="UTF-8"')).toBe(true)
  })

  test('content types and relationships point at the parts', () => {
    const ct = text('[Content_Types].xml')
    expect(ct).toContain('PartName="/xl/workbook.xml"')
    expect(ct).toContain('spreadsheetml.sheet.main+xml')
    expect(ct).toContain('PartName="/xl/worksheets/sheet1.xml"')
    expect(ct).toContain('PartName="/xl/styles.xml"')
    expect(text('_rels/.rels')).toContain('Target="xl/workbook.xml"')
    const rels = text('xl/_rels/workbook.xml.rels')
    expect(rels).toContain('Target="worksheets/sheet1.xml"')
    expect(rels).toContain('Target="styles.xml"')
  })

  test('workbook names the sanitised sheet and its filter range', () => {
    const wb = text('xl/workbook.xml')
    expect(wb).toContain('<sheet name="Listings  Nov 2026" sheetId="1" r:id="rId1"/>')
    expect(wb).toContain(`<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'Listings  Nov 2026'!$A$1:$C$5</definedName>`)
  })

  test('styles: bold header font and a yyyy-mm-dd date format', () => {
    const styles = text('xl/styles.xml')
    expect(styles).toContain('<numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>')
    expect(styles).toContain('<font><b/>')
    // cellXfs: 0 default, 1 bold font, 2 date format
    const xfs = /<cellXfs count="3">(.*)<\/cellXfs>/.exec(styles)![1].match(/<xf [^>]*\/>/g)!
    expect(xfs).toHaveLength(3)
    expect(xfs[1]).toContain('fontId="1"')
    expect(xfs[2]).toContain('numFmtId="164"')
  })

  test('sheet: frozen bold header, column widths, autofilter', () => {
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>')
    expect(sheet).toContain('<col min="1" max="1" width="30" customWidth="1"/>')
    expect(sheet).toContain('<col min="2" max="2" width="12" customWidth="1"/>')
    expect(sheet).toContain('<autoFilter ref="A1:C5"/>')
    expect(sheet.endsWith('</sheetData><autoFilter ref="A1:C5"/></worksheet>')).toBe(true)
    expect(cellsOfRow(sheet, 1)).toEqual({
      A1: '<c r="A1" s="1" t="inlineStr"><is><t>Title</t></is></c>',
      B1: '<c r="B1" s="1" t="inlineStr"><is><t>Price</t></is></c>',
      C1: '<c r="C1" s="1" t="inlineStr"><is><t>Listed</t></is></c>',
    })
    expect(sheet).not.toContain('sharedStrings')
    expect(files['xl/sharedStrings.xml']).toBeUndefined()
  })

  test('sheet: escaped inline strings, numbers as <v>, dates as serials with the date style', () => {
    expect(cellsOfRow(sheet, 2)).toEqual({
      A2: '<c r="A2" t="inlineStr"><is><t>&lt;&amp;&gt;&quot;\' Café 😀 abc</t></is></c>',
      B2: '<c r="B2"><v>1234.5</v></c>',
      C2: '<c r="C2" s="2"><v>46347</v></c>', // 2026-11-21
    })
    expect(sheet).not.toMatch(/[\x00-\x08]/)
    // Nulls leave no cell behind.
    expect(cellsOfRow(sheet, 3)).toEqual({})
    expect(cellsOfRow(sheet, 4)).toEqual({
      A4: '<c r="A4" t="inlineStr"><is><t>Plain</t></is></c>',
      B4: '<c r="B4"><v>-3</v></c>',
      C4: '<c r="C4" s="2"><v>46347.5</v></c>', // noon
    })
    // Numeric strings become numbers, ISO date strings become dates, edge spaces are kept.
    expect(cellsOfRow(sheet, 5)).toEqual({
      A5: '<c r="A5" t="inlineStr"><is><t xml:space="preserve">  padded  </t></is></c>',
      B5: '<c r="B5"><v>42</v></c>',
      C5: '<c r="C5" s="2"><v>46347</v></c>',
    })
  })

  // read-excel-file 9 (devDependency) is the real reader used here; no other xlsx reader or
  // writer (write-excel-file, exceljs, xlsx) is installed in this project.
  test('reads back with read-excel-file: same rows and types', async () => {
    const data = await readSheet(Buffer.from(bytes))
    expect(data).toHaveLength(5)
    expect(data[0]).toEqual(['Title', 'Price', 'Listed'])
    expect(data[1][0]).toBe(`<&>"' Café 😀 abc`)
    expect(data[1][1]).toBe(1234.5)
    expect(data[1][2]).toBeInstanceOf(Date)
    expect(asDate(data[1][2]).toISOString()).toBe('2026-11-21T00:00:00.000Z')
    expect(data[2]).toEqual([null, null, null])
    expect(data[3][0]).toBe('Plain')
    expect(data[3][1]).toBe(-3)
    expect(asDate(data[3][2]).toISOString()).toBe('2026-11-21T12:00:00.000Z')
    expect(typeof data[4][1]).toBe('number')
    expect(asDate(data[4][2]).toISOString()).toBe('2026-11-21T00:00:00.000Z')
  })
})

describe('xlsxStream: streaming', () => {
  const bigColumns: XlsxColumn<number>[] = [
    { header: 'N', type: 'number', value: (n) => n },
    { header: 'Label', type: 'string', value: (n) => `listing #${n} in Springfield` },
    { header: 'Date', type: 'date', value: (n) => new Date(Date.UTC(2025, 0, 1) + (n % 365) * 86_400_000) },
  ]
  const TOTAL = 20_000
  const BATCH = 1_000

  test('a 20,000-row export arrives in several chunks, pulled batch by batch', async () => {
    let batchesPulled = 0
    async function* source() {
      for (let start = 0; start < TOTAL; start += BATCH) {
        batchesPulled++
        yield Array.from({ length: BATCH }, (_, i) => start + i + 1)
      }
    }
    const reader = xlsxStream(source(), bigColumns).getReader()
    expect(batchesPulled).toBe(0) // nothing is produced before a read

    const first = await reader.read()
    expect(first.done).toBe(false)
    // Backpressure: one read does not drain the source.
    expect(batchesPulled).toBeLessThan(TOTAL / BATCH)

    const chunks: Uint8Array[] = [first.value!]
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
    }
    expect(chunks.length).toBeGreaterThan(5)
    expect(batchesPulled).toBe(TOTAL / BATCH)

    const sheet = strFromU8(unzipSync(Buffer.concat(chunks))['xl/worksheets/sheet1.xml'])
    expect(sheet).toContain(`<row r="${TOTAL + 1}"><c r="A${TOTAL + 1}"><v>${TOTAL}</v></c>`)
    expect(sheet).toContain(`<autoFilter ref="A1:C${TOTAL + 1}"/>`)
    expect(sheet.match(/<row /g)).toHaveLength(TOTAL + 1)
  })

  test('yields to the event loop while producing, even from one big synchronous batch', async () => {
    const rows = Array.from({ length: TOTAL }, (_, i) => i + 1)
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    try {
      const bytes = await bytesOf(xlsxStream([rows], bigColumns))
      expect(bytes.length).toBeGreaterThan(0)
    } finally {
      clearInterval(timer)
    }
    // 20,000 rows × 3 cells are produced in about 15 slices, with a macrotask between each.
    expect(ticks).toBeGreaterThan(5)
  })

  test('cancelling the stream closes the source', async () => {
    let closed = false
    let pulled = 0
    async function* source() {
      try {
        for (let i = 0; ; i++) {
          pulled++
          yield Array.from({ length: BATCH }, (_, j) => i * BATCH + j)
        }
      } finally {
        closed = true
      }
    }
    const reader = xlsxStream(source(), bigColumns).getReader()
    while (pulled < 2) expect((await reader.read()).done).toBe(false)
    await reader.cancel()
    expect(closed).toBe(true)
    expect(pulled).toBeLessThan(10)
  })

  test('an error in the source errors the stream', async () => {
    async function* source() {
      yield [1, 2, 3]
      throw new Error('database went away')
    }
    await expect(bytesOf(xlsxStream(source(), bigColumns))).rejects.toThrow('database went away')
  })

  test('no rows: a header-only workbook', async () => {
    const files = unzipSync(await bytesOf(xlsxStream([], bigColumns)))
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml'])
    expect(sheet.match(/<row /g)).toHaveLength(1)
    expect(sheet).toContain('<autoFilter ref="A1:C1"/>')
    expect(strFromU8(files['xl/workbook.xml'])).toContain("'Sheet1'!$A$1:$C$1")
    expect(await readSheet(Buffer.from(await bytesOf(xlsxStream([], bigColumns))))).toEqual([['N', 'Label', 'Date']])
  })

  test('needs at least one column', () => {
    expect(() => xlsxStream([], [])).toThrow()
  })
})

describe('xlsx helpers', () => {
  test('xmlText escapes markup and drops characters XML 1.0 forbids', () => {
    expect(xmlText('a<b>&"c\'')).toBe('a&lt;b&gt;&amp;&quot;c\'')
    expect(xmlText('tab\tnl\ncr\r')).toBe('tab\tnl\ncr\r')
    expect(xmlText('x\u0000\u0008\u000b\u001fy\ufffe\uffff')).toBe('xy')
    expect(xmlText('ok 😀')).toBe('ok 😀')
    expect(xmlText('lone \ud83d high, lone \ude00 low')).toBe('lone  high, lone  low')
    // Excel would show _x0041_ as "A": a literal one is escaped.
    expect(xmlText('id_x0041_')).toBe('id_x005F_x0041_')
    const plain = 'nothing to do here'
    expect(xmlText(plain)).toBe(plain)
  })

  test('columnName', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702, 16383].map(columnName)).toEqual([
      'A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD',
    ])
  })

  test('excelSerial', () => {
    expect(excelSerial(new Date(Date.UTC(2026, 10, 21)))).toBe(46347)
    expect(excelSerial(new Date(Date.UTC(1970, 0, 1)))).toBe(25569)
    expect(excelSerial(new Date(Date.UTC(1900, 2, 1)))).toBe(61)
  })

  test('sheetNameFor follows Excel rules', () => {
    expect(sheetNameFor(undefined)).toBe('Sheet1')
    expect(sheetNameFor('  ')).toBe('Sheet1')
    expect(sheetNameFor('a/b\\c?d*e[f]g:h')).toBe('a b c d e f g h')
    expect(sheetNameFor("'quoted'")).toBe('quoted')
    expect(sheetNameFor('x'.repeat(40))).toHaveLength(31)
    expect(sheetNameFor('History')).toBe('History1')
  })
})
