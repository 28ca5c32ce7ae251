// Helpers for the recording engine's unit tests (never imported by app code).
import { IDBFactory } from 'fake-indexeddb'
import { Blob as NodeBlob } from 'node:buffer'
import { vi } from 'vitest'
import { closeStore } from './store'

// useNodeBlob makes `Blob` Node's own. fake-indexeddb stores values with
// Node's structuredClone, which keeps Node Blobs but turns jsdom's Blob into
// an empty object; a browser's IndexedDB keeps its own Blobs, so this only
// aligns the test realm with what a browser does.
export function useNodeBlob() {
  vi.stubGlobal('Blob', NodeBlob)
}

// freshStore gives every test an empty IndexedDB.
export async function freshStore() {
  await closeStore()
  globalThis.indexedDB = new IDBFactory()
}

export const blob = (text: string, type = 'audio/webm') => new Blob([text], { type })
