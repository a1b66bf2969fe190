import { createElement } from 'react'
import type { GeoOption } from '../../../islands/geo/GeoSelect'
import type { AppContext } from '../../platform/context'
import { formRules } from '../../platform/pages/form-rules'
import { Island } from '../../platform/pages/island'
import { renderPage } from '../../platform/pages/render'
import { listCountries } from '../geography/service'
import { AuthCard } from './auth-card'
import { RegisterBody } from './model'

export function RegisterPage({ countries }: { countries: GeoOption[] }) {
  return (
    <AuthCard
      current="/register"
      wide
      title="Create your broker account"
      subtitle="Join the verified network of real-estate brokers. An administrator reviews every registration."
    >
      <Island name="RegisterForm" props={{ rules: formRules(RegisterBody), countries }} />
    </AuthCard>
  )
}

// Countries are read per request, so the first view's select is complete and current.
export const view = async (ctx: AppContext) =>
  renderPage(createElement(RegisterPage, { countries: (await listCountries(ctx.db)).map(({ id, name }) => ({ id, name })) }), { title: 'Register' })
