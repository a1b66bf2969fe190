/**
 * An email that breaks, when it must, right after the @, never inside a word while there is room; a single part
 * too long for its box still wraps (with break-words or overflow-wrap: anywhere on the box) rather than widen the page.
 */
export function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@')
  if (at < 0) return <>{address}</>
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  )
}
