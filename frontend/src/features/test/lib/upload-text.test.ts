import { describe, expect, it } from 'vitest'
import type { UploadStatus } from '../recording/uploader'
import { directNote, uploadSummary } from './upload-text'

const base: UploadStatus = {
  pendingChunks: 0,
  pendingBytes: 0,
  heldChunks: 0,
  direct: false,
  pendingRecordings: 0,
  uploading: false,
  online: true,
  lastError: null,
  halted: false,
}

describe('uploadSummary', () => {
  it('says when everything is on the server', () => {
    expect(uploadSummary(base)).toEqual({ tone: 'ok', text: 'Guardado en el servidor' })
  })
  it('never says saved while a chunk or a take is not acknowledged', () => {
    expect(uploadSummary({ ...base, pendingChunks: 1, uploading: true })).toEqual({ tone: 'pending', text: 'Enviando al servidor…' })
    expect(uploadSummary({ ...base, pendingRecordings: 1 })).toEqual({ tone: 'pending', text: 'Enviando al servidor…' })
  })
  it('says calmly that takes go straight to the server when the browser refuses to store them', () => {
    expect(uploadSummary({ ...base, direct: true })).toEqual({ tone: 'ok', text: 'Guardado en el servidor', detail: directNote })
    expect(uploadSummary({ ...base, direct: true, pendingChunks: 1, heldChunks: 1 })).toEqual({
      tone: 'pending',
      text: 'Enviando al servidor…',
      detail: directNote,
    })
    expect(uploadSummary({ ...base, direct: true, online: false, pendingChunks: 3, heldChunks: 3 })).toEqual({
      tone: 'offline',
      text: '3 fragmentos pendientes — se enviarán al reconectar',
      detail: 'Sin conexión: la grabación continúa; lo pendiente está en la memoria de esta pestaña (no la cierre ni la recargue).',
    })
    expect(uploadSummary({ ...base, direct: true, online: false }).text).toMatch(/memoria de esta pestaña/)
  })
  it('counts what waits for the connection', () => {
    expect(uploadSummary({ ...base, online: false, pendingChunks: 4 }).text).toBe('4 fragmentos pendientes — se enviarán al reconectar')
    expect(uploadSummary({ ...base, online: false, pendingChunks: 1 }).text).toBe('1 fragmento pendiente — se enviará al reconectar')
    expect(uploadSummary({ ...base, pendingChunks: 2 })).toMatchObject({
      tone: 'pending',
      text: 'Enviando al servidor: 2 fragmentos pendientes',
    })
  })
  it('says calmly that a busy server will take the recordings in a moment', () => {
    const s = uploadSummary({
      ...base,
      pendingChunks: 3,
      lastError: {
        kind: 'busy',
        message: 'El servidor está ocupado; sus grabaciones se guardan y se enviarán en unos segundos.',
        status: 503,
        code: 'server_busy',
        retrying: true,
        retryAfterMs: 2000,
      },
    })
    expect(s).toEqual({
      tone: 'pending',
      text: 'El servidor está ocupado; sus grabaciones se guardan y se enviarán en unos segundos.',
      detail: '3 fragmentos pendientes en este equipo.',
    })
  })
  it('shows an error that needs attention', () => {
    const s = uploadSummary({
      ...base,
      halted: true,
      pendingChunks: 3,
      lastError: { kind: 'auth', message: 'Su sesión expiró.', status: 401, code: 'unauthorized', retrying: false },
    })
    expect(s).toEqual({ tone: 'error', text: 'Su sesión expiró.', detail: '3 fragmentos pendientes en este equipo.' })
  })
})
