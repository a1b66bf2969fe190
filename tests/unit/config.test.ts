import { describe, expect, test } from 'bun:test'
import { availableParallelism } from 'node:os'
import { ConfigError, DEFAULT_ADMIN_EMAIL, loadConfig } from '../../src/platform/config'

describe('loadConfig', () => {
  test('defaults: port 3000, ./data, generated admin password, no demo, no SMTP', () => {
    const c = loadConfig({})
    expect(c.readThreads).toBe(2)
    expect(c.port).toBe(3000)
    expect(c.databasePath.endsWith('/data/brokernet.db')).toBe(true)
    expect(c.adminEmail).toBe(DEFAULT_ADMIN_EMAIL)
    expect(c.adminPassword).toBeUndefined()
    expect(c.demoData).toBe(false)
    expect(c.smtpUrl).toBeUndefined()
    expect(c.publicUrl).toBe('http://localhost:3000')
    expect(c.workers).toBe(Math.min(availableParallelism(), 64))
    expect(c.matchDigestHours).toBe(24)
    expect(c.logLevel).toBe('info')
  })

  test('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      DATA_DIR: '/tmp/bn',
      ADMIN_EMAIL: 'Boss@Example.COM',
      ADMIN_PASSWORD: 'Str0ng!pass',
      DEMO_DATA: '1',
      PUBLIC_URL: 'https://brokers.example.com/',
      SMTP_URL: 'smtp://user:pw@127.0.0.1:2525',
      WORKERS: '3',
      READ_THREADS: '0',
      MATCH_DIGEST_HOURS: '0',
      LOG_LEVEL: 'warn',
    })
    expect(c).toMatchObject({
      logLevel: 'warn',
      workers: 3,
      readThreads: 0,
      matchDigestHours: 0,
      port: 8080,
      databasePath: '/tmp/bn/brokernet.db',
      adminEmail: 'boss@example.com',
      adminPassword: 'Str0ng!pass',
      demoData: true,
      publicUrl: 'https://brokers.example.com',
      smtpUrl: 'smtp://user:pw@127.0.0.1:2525',
    })
  })

  test.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, not "abc"'],
    [{ PORT: '70000' }, 'PORT must be a whole number'],
    [{ ADMIN_EMAIL: 'nobody' }, 'ADMIN_EMAIL "nobody" is not an email address'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD must be at least 8 characters'],
    [{ DEMO_DATA: 'yes' }, 'DEMO_DATA must be 1 or 0, not "yes"'],
    [{ PUBLIC_URL: 'brokers.example.com' }, 'PUBLIC_URL "brokers.example.com" is not a URL'],
    [{ PUBLIC_URL: 'ftp://x.example' }, 'PUBLIC_URL must start with http:// or https://'],
    [{ SMTP_URL: 'http://mail.example' }, 'SMTP_URL must start with smtp:// or smtps://'],
    [{ WORKERS: '0' }, 'WORKERS must be a whole number from 1 to 64, not "0"'],
    [{ WORKERS: '2.5' }, 'WORKERS must be a whole number from 1 to 64'],
    [{ WORKERS: '65' }, 'WORKERS must be a whole number from 1 to 64'],
    [{ READ_THREADS: '17' }, 'READ_THREADS must be a whole number from 0 to 16, not "17"'],
    [{ MATCH_DIGEST_HOURS: '-1' }, 'MATCH_DIGEST_HOURS must be a whole number from 0 to 720, not "-1"'],
    [{ MATCH_DIGEST_HOURS: '1.5' }, 'MATCH_DIGEST_HOURS must be a whole number from 0 to 720'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of debug, info, warn, error, silent, not "verbose"'],
  ])('%j is refused with a one-line message', (env, message) => {
    let error: unknown
    try {
      loadConfig(env as Record<string, string>)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toContain(message)
    expect((error as Error).message).not.toContain('\n')
  })
})
