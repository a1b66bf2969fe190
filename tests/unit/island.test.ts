import { expect, test } from 'bun:test'
import { createElement } from 'react'
import { assetUrls } from '../../generated/assets'
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
