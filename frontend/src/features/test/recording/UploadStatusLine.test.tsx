import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { UploadStatusLine, uploadStatusText } from './UploadStatusLine'
import type { UploadStatus } from './uploader'

const s = (over: Partial<UploadStatus> = {}): UploadStatus => ({
  pendingChunks: 0,
  pendingBytes: 0,
  pendingRecordings: 0,
  uploading: false,
  online: true,
  lastError: null,
  halted: false,
  ...over,
})

describe('uploadStatusText', () => {
  it('says where the audio is', () => {
    expect(uploadStatusText(s())).toEqual({ tone: 'ok', text: 'Grabaciones guardadas en el servidor.' })
    expect(uploadStatusText(s({ pendingChunks: 3, pendingBytes: 48_000 })).text).toBe(
      'Subiendo la grabación: 3 fragmentos pendientes (47 kB).',
    )
    expect(uploadStatusText(s({ pendingChunks: 1, pendingBytes: 2048 })).text).toBe('Subiendo la grabación: 1 fragmento pendiente (2 kB).')
    expect(uploadStatusText(s({ pendingRecordings: 1 })).tone).toBe('busy')
    expect(uploadStatusText(s({ online: false, pendingChunks: 1, pendingBytes: 10 })).text).toBe(
      'Sin conexión. 1 fragmento (1 kB) guardado en este equipo; se subirá al volver la conexión.',
    )
  })

  it('shows errors that need attention first', () => {
    const lastError = { kind: 'gone' as const, message: 'El intento ya no existe', status: 404, code: 'not_found', retrying: false }
    expect(uploadStatusText(s({ lastError, pendingChunks: 2 }))).toEqual({ tone: 'error', text: 'El intento ya no existe' })
    const retrying = { ...lastError, kind: 'transient' as const, message: 'Reintentando', retrying: true }
    expect(uploadStatusText(s({ lastError: retrying, pendingChunks: 2 }))).toEqual({ tone: 'warn', text: 'Reintentando' })
  })

  it('renders a polite live region', () => {
    render(<UploadStatusLine queue={null} />)
    expect(screen.getByRole('status')).toHaveTextContent('Grabaciones guardadas en el servidor.')
  })
})
