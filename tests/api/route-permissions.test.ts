// Every API route names the permission it needs (docs/decisions/011-one-scope-rule.md): the `permission` macro writes it
// into the OpenAPI document as `x-permission`. A route without one must be in the allow-list below, public or for any
// signed-in user, so a new route that forgets its permission fails here. Run in process and against the binary.
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { can, type Permission } from '../../src/platform/policy/permissions'
import { ROLES } from '../../src/shared/constants'
import { createTestApp } from '../support/app'

const h = await createTestApp()
afterAll(() => h.close())

/** Routes no entity permission fits, and why: public ones, and the caller's own session and event stream. */
const WITHOUT_PERMISSION: Record<string, 'public' | 'signed-in'> = {
  'get /api/health': 'public',
  'get /api/health/ready': 'public', // a load balancer's check
  'post /api/auth/register': 'public',
  'post /api/auth/login': 'public',
  'post /api/auth/login/second-factor': 'public', // the sign-in's second step: its challenge stands for the password
  'post /api/auth/logout': 'public', // a session is optional: without one it is a 204 as well
  'post /api/auth/password/forgot': 'public',
  'post /api/auth/password/reset': 'public',
  'get /api/geographic/countries': 'public', // the registration form's places
  'get /api/geographic/countries/{id}/states': 'public',
  'get /api/geographic/states/{id}/cities': 'public',
  'get /api/auth/me': 'signed-in', // who the caller is
  'post /api/auth/refresh': 'signed-in', // the caller's own session token
  'get /api/events': 'signed-in', // the caller's own stream; each event kind checks its own permission
}

type Operation = { security?: unknown[]; 'x-permission'?: string; 'x-signed-in'?: boolean }
let operations: [string, Operation][] = []

beforeAll(async () => {
  const doc = await (await h.request('/swagger/json')).json()
  operations = Object.entries<Record<string, Operation>>(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [`${method} ${path}`, op] as [string, Operation]))
})

test('every operation names a permission some role holds, or is allowed without one for a stated reason', () => {
  const missing: string[] = []
  for (const [name, op] of operations) {
    const permission = op['x-permission']
    if (permission) {
      expect(ROLES.some((role) => can(role, permission as Permission)), `${name}: ${permission} is held by no role`).toBe(true)
      expect(WITHOUT_PERMISSION[name], `${name} names a permission and is in the allow-list`).toBeUndefined()
    } else if (!WITHOUT_PERMISSION[name]) missing.push(name)
    else if (WITHOUT_PERMISSION[name] === 'signed-in') expect(op['x-signed-in'], `${name} should need a session`).toBe(true)
    else expect(op['x-signed-in'], `${name} is public`).toBeUndefined()
  }
  expect(missing).toEqual([])
  expect(operations.length).toBeGreaterThan(50)
})

test('the allow-list holds only routes that exist', () => {
  const names = new Set(operations.map(([name]) => name))
  expect(Object.keys(WITHOUT_PERMISSION).filter((name) => !names.has(name))).toEqual([])
})

test('no API route escapes the document (a hidden one would escape the check above)', () => {
  const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')
  const names = new Set(operations.map(([name]) => name))
  const routes = h.app.routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL').map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`)
  expect(routes.length).toBeGreaterThan(50)
  expect(routes.filter((name) => !names.has(name))).toEqual([])
})

test('the listing and matching routes check their permission (none of them is only signed in; a co-broke request on a listing is a deal’s, issue 35)', () => {
  for (const [name, op] of operations)
    if (/\/api\/(listings|matches)\b/.test(name)) expect(op['x-permission'], name).toMatch(/^(read|manage):(listing|matching|deal):/)
})
