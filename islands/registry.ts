// Every island by name. The server renders them by name (src/platform/pages/island.tsx); the client hydrates them by name.
import AnalyticsBoard from './analytics/AnalyticsBoard'
import AuditLog from './audit/AuditLog'
import ForgotPasswordForm from './auth/ForgotPasswordForm'
import LoginForm from './auth/LoginForm'
import RegisterForm from './auth/RegisterForm'
import ResetPasswordForm from './auth/ResetPasswordForm'
import SecondFactorSettings from './auth/SecondFactorSettings'
import GeoTree from './geo/GeoTree'
import PasteFromWhatsApp from './intake/PasteFromWhatsApp'
import AdminListings from './listings/admin/AdminListings'
import BrokerListings from './listings/BrokerListings'
import MyListings from './listings/MyListings'
import MatchInbox from './matches/MatchInbox'
import ExpiringBadge from './shell/ExpiringBadge'
import MatchesBadge from './shell/MatchesBadge'
import PendingBadge from './shell/PendingBadge'
import Toaster from './shared/Toaster'
import SystemScreen from './system/SystemScreen'
import ApprovalsBoard from './users/ApprovalsBoard'
import UserManager from './users/UserManager'

export const islands = { AnalyticsBoard, LoginForm, RegisterForm, ForgotPasswordForm, ResetPasswordForm, GeoTree, Toaster, UserManager, ApprovalsBoard, PendingBadge, MatchesBadge, ExpiringBadge, BrokerListings, MyListings, AdminListings, AuditLog, MatchInbox, PasteFromWhatsApp, SystemScreen, SecondFactorSettings }
export type IslandName = keyof typeof islands
