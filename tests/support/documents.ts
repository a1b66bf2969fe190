// Identity documents that are valid files, not just the right first bytes: what a broker really uploads.
import { renderSampleIdCard } from '../../db/seed/id-card-image'

/** A sample identity card, a complete PNG (about 17 KB), drawn by the demo seed's renderer. */
export const identityCardPng = (fullName: string, idNumber: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(renderSampleIdCard({ fullName, idNumber, city: 'Mumbai', role: 'Broker' }))

/** A one-page PDF with a line of text, its cross-reference table at the right byte offsets. */
export function identityCardPdf(text: string): Uint8Array<ArrayBuffer> {
  const content = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ]
  let pdf = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(pdf.length)
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = pdf.length
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const at of offsets) pdf += `${String(at).padStart(10, '0')} 00000 n \n`
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(pdf)
}
