// A port for a server a bench starts. Below the kernel's ephemeral range (32768 and up on Linux): a random port up
// there can be the local end of a connection the machine has open, and the server then fails with EADDRINUSE (a quiet
// bench:http run of session 44 aborted so). Probed free by binding it; `count` consecutive ports for several instances.

/** A first port of `count` consecutive ports, each free when probed, in 20000–32767. */
export function benchPort(count = 1): number {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20000 + Math.floor(Math.random() * (12768 - count))
    if (Array.from({ length: count }, (_, i) => first + i).every(free)) return first
  }
  throw new Error('no free port in 20000–32767 after 50 tries')
}

function free(port: number): boolean {
  try {
    Bun.listen({ hostname: '127.0.0.1', port, socket: { data() {} } }).stop(true)
    return true
  } catch {
    return false
  }
}
