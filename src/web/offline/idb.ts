// The write queue's storage: one IndexedDB object store, keyed by an increasing number (the order
// the writes were made in), wrapped in promises. IndexedDB outlives the tab and a reload, which
// localStorage would too, but it is also written from several tabs without losing an entry.
import type { NewQueuedWrite, QueuedWrite } from './queue'

const DATABASE = 'quest-tracker-offline'
const STORE = 'writes'

let opening: Promise<IDBDatabase> | undefined

function database(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1)
    request.onupgradeneeded = () => {
      request.result.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true })
    }
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  }).catch((error: unknown) => {
    opening = undefined
    throw error
  })
  return opening
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await database()
  return new Promise<T>((resolve, reject) => {
    const transaction = db.transaction(STORE, mode)
    const request = work(transaction.objectStore(STORE))
    // Resolved once written for good, not when the request alone succeeds.
    transaction.oncomplete = () => resolve(request.result)
    transaction.onerror = () => reject(transaction.error)
    transaction.onabort = () => reject(transaction.error)
  })
}

/** Every queued write of every account, in the order they were made. */
export const allWrites = () => run('readonly', (store) => store.getAll() as IDBRequest<QueuedWrite[]>)

export const addWrite = (write: NewQueuedWrite) => run('readwrite', (store) => store.add(write))

export const putWrite = (write: QueuedWrite) => run('readwrite', (store) => store.put(write))

export const deleteWrite = (id: number) => run('readwrite', (store) => store.delete(id))

export const clearWrites = () => run('readwrite', (store) => store.clear())
