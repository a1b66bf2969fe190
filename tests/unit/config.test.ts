import { describe, expect, test } from 'bun:test'
import { availableParallelism } from 'node:os'
import { ConfigError, DEFAULT_ADMIN_EMAIL, loadConfig } from '../../src/platform/config'

describe('loadConfig', () => {
  test('defaults: port 3000, ./data, generated admin password, no demo, no SMTP', () => {
    const c = loadConfig({})
    expect(c.readThreads).toBe(0)
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
    expect(c.pushRate).toBe(125)
    // 0 turns the pace of push bursts off.
    expect(loadConfig({ PUSH_RATE: '0' }).pushRate).toBe(0)
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
    [{ S3_BUCKET: 'photos' }, 'S3_BUCKET is set: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY too'],
    [{ S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_ENDPOINT: 'ftp://x' }, 'S3_ENDPOINT must start with http:// or https://'],
    [{ S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_PREFIX: '../x' }, 'S3_PREFIX must be empty or folder names ending in "/"'],
    [{ S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_TIMEOUT_MS: '10' }, 'S3_TIMEOUT_MS must be a whole number from 100 to 120000'],
    [{ PUSH_RATE: 'fast' }, 'PUSH_RATE must be a whole number from 0 to 100000, not "fast"'],
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

describe('photo storage in an S3 bucket (issue 34)', () => {
  test('off unless S3_BUCKET is set (AWS_* keys in the shell never move the photos); on, the S3_* names Bun’s client reads', () => {
    expect(loadConfig({ AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' }).photoS3).toBeNull()
    const on = loadConfig({ S3_BUCKET: 'photos', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'auto', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' })
    expect(on.photoS3).toEqual({
      bucket: 'photos',
      endpoint: 'http://127.0.0.1:9000',
      region: 'auto',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      sessionToken: undefined,
      virtualHostedStyle: false,
      prefix: 'photos/',
      timeoutMs: 5000,
    })
    expect(loadConfig({ S3_BUCKET: 'b', AWS_ACCESS_KEY_ID: 'k2', AWS_SECRET_ACCESS_KEY: 's2', S3_PREFIX: '' }).photoS3).toMatchObject({ accessKeyId: 'k2', secretAccessKey: 's2', prefix: '' })
  })

  test('a refusal never shows the secret', () => {
    try {
      loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 'very-secret-value', S3_TIMEOUT_MS: 'x' })
      throw new Error('accepted')
    } catch (e) {
      expect((e as Error).message).not.toContain('very-secret-value')
    }
  })
})
