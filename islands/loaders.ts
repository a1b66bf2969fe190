// The browser loads each island's code only on pages that hold it: one small entry, then one chunk per island
// (shared code in common chunks). The type keeps this list and the server's registry in step.
import type { ComponentType } from 'react'
import type { IslandName } from './registry'

type Loader = () => Promise<{ default: ComponentType<never> }>

export const loaders: Record<IslandName, Loader> = {
  AnalyticsBoard: () => import('./analytics/AnalyticsBoard'),
  AuditLog: () => import('./audit/AuditLog'),
  ForgotPasswordForm: () => import('./auth/ForgotPasswordForm'),
  LoginForm: () => import('./auth/LoginForm'),
  RegisterForm: () => import('./auth/RegisterForm'),
  ResetPasswordForm: () => import('./auth/ResetPasswordForm'),
  SecondFactorSettings: () => import('./auth/SecondFactorSettings'),
  SecondFactorPolicy: () => import('./users/SecondFactorPolicy'),
  DealsBoard: () => import('./deals/DealsBoard'),
  DealThread: () => import('./deals/DealThread'),
  GeoTree: () => import('./geo/GeoTree'),
  PasteFromWhatsApp: () => import('./intake/PasteFromWhatsApp'),
  LocalityOffers: () => import('./intake/LocalityOffers'),
  AdminListings: () => import('./listings/admin/AdminListings'),
  BrokerListings: () => import('./listings/BrokerListings'),
  MyListings: () => import('./listings/MyListings'),
  MatchInbox: () => import('./matches/MatchInbox'),
  PushSettings: () => import('./notifications/PushSettings'),
  MatchesBadge: () => import('./shell/MatchesBadge'),
  ExpiringBadge: () => import('./shell/ExpiringBadge'),
  AlertBell: () => import('./shell/AlertBell'),
  PendingBadge: () => import('./shell/PendingBadge'),
  Toaster: () => import('./shared/Toaster'),
  SystemScreen: () => import('./system/SystemScreen'),
  ApprovalsBoard: () => import('./users/ApprovalsBoard'),
  UserManager: () => import('./users/UserManager'),
  ShareLinksBoard: () => import('./share-links/ShareLinksBoard'),
}
