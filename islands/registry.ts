// Every island by name. The server renders them by name (src/pages/island.tsx); the client hydrates them by name.
import ForgotPasswordForm from './auth/ForgotPasswordForm'
import LoginForm from './auth/LoginForm'
import RegisterForm from './auth/RegisterForm'
import ResetPasswordForm from './auth/ResetPasswordForm'
import GeoTree from './geo/GeoTree'
import PendingBadge from './shell/PendingBadge'
import Toaster from './shared/Toaster'
import ApprovalsBoard from './users/ApprovalsBoard'
import UserManager from './users/UserManager'

export const islands = { LoginForm, RegisterForm, ForgotPasswordForm, ResetPasswordForm, GeoTree, Toaster, UserManager, ApprovalsBoard, PendingBadge }
export type IslandName = keyof typeof islands
