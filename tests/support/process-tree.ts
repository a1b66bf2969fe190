// A server's processes, read from /proc (no `ps` needed): the primary and the workers it started (src/platform/processes.ts).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** The pids of a process's children. */
export function childrenOf(pid: number): number[] {
  const out = Bun.spawnSync(['sh', '-c', 'cat /proc/[0-9]*/stat 2>/dev/null']).stdout.toString()
  return out
    .split('\n')
    .map((line) => /^(\d+) \(.*\) \S+ (\d+) /.exec(line))
    .filter((m): m is RegExpExecArray => !!m && Number(m[2]) === pid)
    .map((m) => Number(m[1]))
}

/** Running: a process that exited but was not yet reaped (a zombie, whose parent was killed) counts as gone. */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/** Whether `pid` holds a listening TCP socket on `port` (from /proc/net/tcp and tcp6, and the process's descriptors). */
export function listensOn(pid: number, port: number): boolean {
  const inodes = new Set<string>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/)
      // local_address is ADDRESS:PORT in hex; state 0A is LISTEN; field 9 is the socket's inode.
      if (f.length > 9 && parseInt(f[1]!.split(':')[1]!, 16) === port && f[3] === '0A') inodes.add(f[9]!)
    }
  }
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '')
      } catch {
        return false
      }
    })
  } catch {
    return false
  }
}
