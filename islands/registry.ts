// Every island by name. The server renders them by name (src/pages/island.tsx); the client hydrates them by name.
import ForgotPasswordForm from './auth/ForgotPasswordForm'
import LoginForm from './auth/LoginForm'
import RegisterForm from './auth/RegisterForm'
import ResetPasswordForm from './auth/ResetPasswordForm'
import GeoTree from './geo/GeoTree'
import Toaster from './shared/Toaster'

export const islands = { LoginForm, RegisterForm, ForgotPasswordForm, ResetPasswordForm, GeoTree, Toaster }
export type IslandName = keyof typeof islands
