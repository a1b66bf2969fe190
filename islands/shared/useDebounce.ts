import { useEffect, useState } from 'react'

/** `value`, once it has stayed the same for `ms` milliseconds (SPEC section 9: searches wait 300 ms). */
export function useDebounce<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}
