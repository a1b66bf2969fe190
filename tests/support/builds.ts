// The programs the operations tests run: this work tree's dist/brokernet, and the binary of an earlier commit of this
// repository built from its own sources (the upgrade test starts it on a fresh DATA_DIR, then the current one on it).
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('../..', import.meta.url).pathname

function run(command: string[], cwd: string, what: string): void {
  const proc = Bun.spawnSync(command, { cwd, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, FORCE_COLOR: '0' } })
  if (proc.exitCode !== 0) throw new Error(`${what} failed (${command.join(' ')}, exit ${proc.exitCode}):\n${proc.stdout}${proc.stderr}`)
}

/**
 * The current binary: the one `bun run test` built for every suite (BROKERNET_BUILT), else one built here into a
 * temporary folder (removed by `cleanup`), so a file run alone never replaces a dist/brokernet someone else is running.
 */
export function currentBinary(): { path: string; cleanup: () => void } {
  if (process.env.BROKERNET_BUILT) return { path: process.env.BROKERNET_BUILT, cleanup: () => {} }
  const dir = mkdtempSync(join(tmpdir(), 'brokernet-current-'))
  const path = join(dir, 'brokernet')
  run([process.execPath, 'scripts/build-binary.ts', path], root, 'building the current binary')
  return { path, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * The binary of `commit`, built by that commit's own `bun run build` in a detached git worktree (removed afterwards),
 * with its own lockfile. Kept under the system's temporary folder, keyed by the commit and this Bun's version (the
 * binary embeds the runtime that built it), so later runs start at once. Written under a temporary name and renamed,
 * so two runs building at once never see half a file.
 */
export function binaryAt(commit: string): string {
  const cacheDir = join(tmpdir(), 'brokernet-binaries')
  const cached = join(cacheDir, `brokernet-${commit}-bun${Bun.version}`)
  if (existsSync(cached)) return cached

  const known = Bun.spawnSync(['git', 'cat-file', '-e', `${commit}^{commit}`], { cwd: root })
  if (known.exitCode !== 0)
    throw new Error(`commit ${commit} is not in this clone's history (a shallow clone? run git fetch --unshallow)`)

  mkdirSync(cacheDir, { recursive: true })
  const worktree = mkdtempSync(join(tmpdir(), 'brokernet-worktree-'))
  rmSync(worktree, { recursive: true }) // git worktree add wants to create the folder itself
  try {
    run(['git', 'worktree', 'add', '--detach', worktree, commit], root, `git worktree add of ${commit}`)
    run([process.execPath, 'install', '--frozen-lockfile'], worktree, `bun install at ${commit}`)
    run([process.execPath, 'run', 'build'], worktree, `bun run build at ${commit}`)
    const partial = `${cached}.partial-${process.pid}`
    copyFileSync(join(worktree, 'dist/brokernet'), partial)
    chmodSync(partial, 0o755)
    renameSync(partial, cached)
  } finally {
    Bun.spawnSync(['git', 'worktree', 'remove', '--force', worktree], { cwd: root })
    rmSync(worktree, { recursive: true, force: true })
    Bun.spawnSync(['git', 'worktree', 'prune'], { cwd: root })
  }
  return cached
}
