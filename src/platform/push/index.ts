// Web Push (issue 33; docs/decisions/035-web-push.md): the server's VAPID keys, the devices users take alerts on, the
// checks every push endpoint passes, and the sender of the push outbox. Features queue messages with
// `PushSender.notify`; nothing here knows them.
export { allowList, checkEndpoint, EndpointRefused, EndpointUnresolved, systemResolver, type AllowList, type Resolver } from './endpoint'
export { pushOutboxState } from './outbox'
export { type PushMessage, type PushOptions, type Urgency } from './payload'
export { PushStats, type PushEvent } from './stats'
export { PushSender, type CheckResult, type PushGuard, type PushSenderOptions } from './sender'
export { listDevices, MAX_DEVICES, removeAllDevices, removeDevice, removeEndpoint, subscribe, usersWithDevices, type EndpointPolicy, type PushDevice, type SubscriptionInput } from './subscriptions'
export { vapidKeys, vapidPublicKey } from './vapid'
