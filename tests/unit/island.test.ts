import { expect, test } from 'bun:test'
import { createElement } from 'react'
import { assetUrls, clientScripts, islandScripts } from '../../generated/assets'
import { Island, serializeProps } from '../../src/platform/pages/island'
import { renderPage } from '../../src/platform/pages/render'

test('island props cannot close their script element', () => {
  const json = serializeProps({ text: '</script><script>alert(1)</script><!--' })
  expect(json).not.toContain('<')
  expect(JSON.parse(json)).toEqual({ text: '</script><script>alert(1)</script><!--' })
})

test('a page without islands ships no script', async () => {
  const html = await renderPage(createElement('p', null, 'plain'), { title: 'Plain' }).text()
  expect(html).not.toContain('<script')
  expect(html).toContain(assetUrls.css)
})

test('a page with an island ships the client once, the island HTML complete, and its props beside it', async () => {
  const rules = { properties: { email: { pattern: '@', error: 'Please enter a valid email address' } }, required: ['email'] }
  const page = createElement('main', null, createElement(Island, { name: 'LoginForm', props: { rules, redirectTo: '/dashboard/<x>' } }))
  const html = await renderPage(page, { title: 'Login' }).text()
  expect(html.match(new RegExp(`<script type="module" src="${assetUrls.client}">`, 'g'))?.length).toBe(1)
  expect(html).toContain('data-island="LoginForm"')
  expect(html).toContain('name="email"') // first view rendered on the server, not a spinner
  expect(html).toContain('data-island="Toaster"') // the toast host joins any page with islands
  const props = /<script type="application\/json" id="island-props-1">(.*?)<\/script>/.exec(html)?.[1]
  expect(props).toBeDefined()
  expect(props).not.toContain('<x>')
  expect(JSON.parse(props!).redirectTo).toBe('/dashboard/<x>')
})

test('rendering an island outside a page is a clear error', () => {
  const { renderToString } = require('react-dom/server')
  expect(() => renderToString(createElement(Island, { name: 'Toaster', props: {} }))).toThrow('rendered outside renderPage()')
})

test('a page announces the chunks of its islands with modulepreload, each once, and nothing the entry does not need', async () => {
  const page = createElement('main', null, createElement(Island, { name: 'LoginForm', props: { rules: { properties: {}, required: [] }, redirectTo: '/dashboard' } }))
  const html = await renderPage(page, { title: 'Login' }).text()
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]!)
  expect(preloads.length).toBeGreaterThan(0)
  expect(new Set(preloads).size).toBe(preloads.length)
  for (const url of [...clientScripts.filter((u) => u !== assetUrls.client), ...islandScripts.LoginForm!, ...islandScripts.Toaster!]) expect(preloads).toContain(url)
  // In <head>, beside the entry, so the browser fetches them while it reads the page.
  expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'))
  // The analytics board's chunks (uPlot) are not this page's.
  const foreign = islandScripts.AnalyticsBoard!.filter((u) => !islandScripts.LoginForm!.includes(u) && !islandScripts.Toaster!.includes(u))
  expect(foreign.length).toBeGreaterThan(0)
  for (const url of foreign) expect(preloads).not.toContain(url)
})
