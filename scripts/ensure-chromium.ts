// Browser tests drive Debian's Chromium (Playwright cannot download its own browser here).
import { existsSync } from 'node:fs'

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

/** Installs Chromium with apt when it is missing and we are root; otherwise explains how. Returns whether it is there. */
export function ensureChromium(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('Chromium is missing: installing it with apt-get (about 480 MB, once)...')
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
    const update = Bun.spawnSync(['apt-get', 'update', '-qq'], { stdout: 'inherit', stderr: 'inherit', env })
    const install =
      update.exitCode === 0 && Bun.spawnSync(['apt-get', 'install', '-y', '-qq', 'chromium'], { stdout: 'inherit', stderr: 'inherit', env })
    if (install && install.exitCode === 0 && existsSync(CHROMIUM_PATH)) return true
  }
  console.error(
    `Browser tests need Chromium at ${CHROMIUM_PATH}. Install it with "sudo apt-get install -y chromium" ` +
      '(or point CHROMIUM_PATH at a Chromium or Chrome binary), then run the tests again.',
  )
  return false
}

if (import.meta.main) process.exit(ensureChromium() ? 0 : 1)
