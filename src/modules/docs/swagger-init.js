// Starts Swagger UI on /swagger. A file, not an inline script, so the page keeps a strict Content-Security-Policy.
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/swagger/json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    withCredentials: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  })
})
