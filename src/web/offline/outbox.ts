// The write queue of the website: a tick, untick or filter change the server cannot take now (it
// cannot be reached, or is busy) is kept in IndexedDB (idb.ts) and sent, in the order it was made,
// when the server is back; a write the server refuses stays, with the server's sentence, until the
// player dismisses it. While anything waits, later writes queue behind it, so the order holds.
// One tab sends at a time (a Web Lock), and every tab shows the same queue (a BroadcastChannel).
// Only the signed-in account's writes are sent, with its session; signing out clears the queue.
import { signal } from '@preact/signals'
import { ApiError, api, errorMessage, type On401, type Progress, type RemovedCompletion } from '../api'
import { CACHE_PREFIX, DATA_CACHE_PREFIX, SESSION_CACHE } from './cachePolicy'
import { addWrite, allWrites, clearWrites, deleteWrite, putWrite } from './idb'
import { MAX_QUEUED_WRITES } from './limits'
import { type Delivery, deliveryOf, isWaiting, type QueuedChange, type QueuedWrite } from './queue'
import { OFFLINE_PROBE_MS, reachable, whenReachable } from './status'

/** The signed-in account's queued writes, waiting and refused, in order. */
export const queuedWrites = signal<readonly QueuedWrite[]>([])

/** What `sendOrQueue` answers for a write it kept to send later. */
export const QUEUED = 'queued'

let account: number | null = null
/** Whether this page already sends the queue each time the server is back. */
let watching = false
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('qt-outbox')
const sentListeners = new Set<() => void>()

/** The queue read before the session said whose it is (prepareOutbox), for the first reload. */
let prepared: Promise<QueuedWrite[]> | null = null

/**
 * Starts reading the queue now, while the session is being asked whose it is (session.ts): the
 * browser's storage is opened beside the page's first reads, not after them.
 */
export function prepareOutbox(): void {
  // Always a fresh read: one left by a page that never got its session (sent to sign in) is stale.
  prepared = allWrites()
  prepared.catch(() => {})
}

async function reload(): Promise<void> {
  const me = account
  const read = prepared ?? allWrites()
  prepared = null
  try {
    queuedWrites.value = me === null ? [] : (await read).filter((write) => write.account === me)
  } catch {
    // No IndexedDB here (a browser that refuses it): nothing was kept either.
    queuedWrites.value = []
  }
}

/** Another tab's queue changed, or this one's: every tab shows the same. */
async function changed(): Promise<void> {
  await reload()
  channel?.postMessage('changed')
}

/**
 * Called with the signed-in user by every signed-in page (session.ts): shows that account's queue
 * and sends what waits, now and each time the server can be reached again.
 */
export async function openOutbox(userId: number): Promise<void> {
  account = userId
  await reload()
  if (channel) channel.onmessage = () => void reload()
  if (!watching) whenReachable(() => void flush())
  watching = true
  if (queuedWrites.value.some(isWaiting)) void flush()
}

/** Calls `listener` after a flush sent or refused writes (the tracker then reads the server again). */
export function afterFlush(listener: () => void): () => void {
  sentListeners.add(listener)
  return () => sentListeners.delete(listener)
}

/** What a change sent answers: a progress change the whole progress, an untick what it removed (for its undo). */
export type Delivered = Progress | RemovedCompletion[] | null

/** Sends one change to the server. */
function deliver(characterId: number, change: QueuedChange, on401: On401): Promise<Delivered> {
  switch (change.kind) {
    case 'tick': {
      const { kind: _, ...key } = change
      return api.logCompletion(characterId, key, on401).then(() => null)
    }
    case 'untick': {
      const { kind: _, ...key } = change
      return api.deleteCompletion(characterId, key, on401).then((answer) => answer.removed)
    }
    case 'progress':
      return api.putProgress(characterId, change.patch, on401)
  }
}

export interface WriteTarget {
  characterId: number
  characterName: string
}

/**
 * Sends the change now, or queues it (an untick queued has nothing to undo: its answer comes later): when the server is known to be away, when earlier writes
 * still wait (the order must hold), or when this send finds it away or busy. Answers what the
 * server answered, or QUEUED; throws the server's refusal (the page shows it, as before).
 */
export async function sendOrQueue(target: WriteTarget, change: QueuedChange): Promise<Delivered | 'queued'> {
  if (account === null) return deliver(target.characterId, change, 'sign-in')
  if (!reachable.value || queuedWrites.value.some(isWaiting)) return queue(target, change)
  try {
    return await deliver(target.characterId, change, 'sign-in')
  } catch (e) {
    if (e instanceof ApiError && deliveryOf(e.status) === 'retry') return queue(target, change)
    throw e
  }
}

async function queue(target: WriteTarget, change: QueuedChange): Promise<'queued'> {
  if (account === null) throw new Error('Nobody is signed in here.')
  if (queuedWrites.value.length >= MAX_QUEUED_WRITES) {
    throw new Error(
      `${MAX_QUEUED_WRITES} changes are already waiting to be sent, so this one was not kept: reconnect to the server first.`,
    )
  }
  try {
    await addWrite({ account, ...target, queuedAt: new Date().toISOString(), change })
  } catch {
    throw new Error('The server cannot be reached, and this browser cannot keep the change: it was not saved.')
  }
  await changed()
  // Queued behind a busy server rather than a missing one: nothing will say it is back.
  if (reachable.value) retryLater()
  return QUEUED
}

let retryTimer: ReturnType<typeof setTimeout> | undefined
function retryLater(): void {
  clearTimeout(retryTimer)
  retryTimer = setTimeout(() => void flush(), OFFLINE_PROBE_MS)
}

let flushing: Promise<void> | null = null

/** Sends what waits, in order, one tab at a time; a flush already running is not started twice. */
export function flush(): Promise<void> {
  flushing ??= exclusively(sendWaiting).finally(() => {
    flushing = null
  })
  return flushing
}

/** One tab sends at a time (the others' writes are in the same store): a Web Lock where there is one. */
async function exclusively(work: () => Promise<void>): Promise<void> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks
  if (locks) await locks.request('qt-outbox', work)
  else await work()
}

async function sendWaiting(): Promise<void> {
  const me = account
  if (me === null) return
  let done = 0
  let stopped: Delivery | null = null
  let waiting: QueuedWrite[]
  try {
    // Read again inside the lock: another tab may have sent some.
    waiting = (await allWrites()).filter((write) => write.account === me && isWaiting(write))
  } catch {
    return
  }
  for (const write of waiting) {
    let delivery: Delivery = 'sent'
    let sentence = ''
    try {
      await deliver(write.characterId, write.change, 'throw')
    } catch (e) {
      delivery = deliveryOf(e instanceof ApiError ? e.status : 0)
      sentence = errorMessage(e)
    }
    if (delivery === 'sent') await deleteWrite(write.id)
    else if (delivery === 'refused') await putWrite({ ...write, refused: sentence })
    else {
      // Away, busy, or signed out: this one and everything after it wait.
      stopped = delivery
      break
    }
    done++
  }
  await changed()
  if (done > 0) for (const listener of sentListeners) listener()
  if (stopped === 'retry' && reachable.value) retryLater()
}

/** The player has read why the server refused it: it goes. */
export async function dismiss(id: number): Promise<void> {
  await deleteWrite(id)
  await changed()
}

/**
 * Signing out: the queue (every account's) and the kept answers of any account go from this
 * browser. The service worker clears its caches too when it sees the sign-out; this covers a page
 * it did not control. The public catalog and the app shell stay.
 */
export async function forgetOfflineData(): Promise<void> {
  account = null
  try {
    await clearWrites()
  } catch {
    // no IndexedDB: nothing was kept
  }
  await changed()
  if (typeof caches === 'undefined') return
  for (const name of await caches.keys()) {
    if (name.startsWith(CACHE_PREFIX) && (name === SESSION_CACHE || name.startsWith(DATA_CACHE_PREFIX))) {
      await caches.delete(name)
    }
  }
}
