import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { setStaleSessionHandler } from '@/lib/api-client'
import type { Recording } from '@/types/api'
import { RecordingPlayer, formatClock } from './RecordingPlayer'

const seekableWebm = vi.hoisted(() => vi.fn((bytes: ArrayBuffer) => bytes))
vi.mock('@/lib/seekable-webm', () => ({ seekableWebm }))
const withMp4Duration = vi.hoisted(() => vi.fn((bytes: ArrayBuffer) => bytes))
vi.mock('@/lib/seekable-mp4', () => ({ withMp4Duration }))

const rec = (over: Partial<Recording> = {}): Recording => ({
  id: 'r-1',
  phase: 3,
  mimeType: 'audio/webm;codecs=opus',
  chunks: 12,
  bytes: 190321,
  durationMs: 23950,
  complete: true,
  deleted: false,
  createdAt: '2026-11-20T15:00:00Z',
  late: false,
  transcript: null,
  ...over,
})

describe('RecordingPlayer', () => {
  const created: string[] = []
  const revoke = vi.fn()

  beforeEach(() => {
    created.length = 0
    seekableWebm.mockClear()
    withMp4Duration.mockClear()
    revoke.mockClear()
    URL.createObjectURL = vi.fn(() => {
      created.push(`blob:test/${created.length}`)
      return created.at(-1)!
    })
    URL.revokeObjectURL = revoke
  })
  afterEach(() => vi.restoreAllMocks())

  it('plays the media from an object URL, with the WebM duration patched', async () => {
    const f = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response('OggS-or-webm-bytes', { status: 200, headers: { 'Content-Type': 'audio/webm' } }))
    const { unmount } = render(<RecordingPlayer attemptId="a 1" recording={rec()} label="Exposición, parte 1" />)
    expect(screen.getByRole('status')).toHaveTextContent('Cargando grabación…')

    const audio = await screen.findByLabelText('Grabación: Exposición, parte 1')
    expect(audio.tagName).toBe('AUDIO')
    expect(audio).toHaveAttribute('src', 'blob:test/0')
    expect(audio).toHaveAttribute('preload', 'metadata')
    expect(audio).toHaveAttribute('controls')
    expect(f).toHaveBeenCalledWith('/api/attempts/a%201/recordings/r-1/media', expect.objectContaining({ credentials: 'same-origin' }))
    expect(seekableWebm).toHaveBeenCalledWith(expect.any(ArrayBuffer), 23950)

    const link = screen.getByRole('link', { name: /Descargar/ })
    expect(link).toHaveAttribute('href', 'blob:test/0')
    expect(link).toHaveAttribute('download', 'grabacion-r-1.webm')
    expect(screen.getByText('(0:24)')).toBeInTheDocument()

    unmount()
    expect(revoke).toHaveBeenCalledWith('blob:test/0')
  })

  it('writes the length into MP4 (Safari) recordings, not as WebM', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('mp4', { status: 200, headers: { 'Content-Type': 'audio/mp4' } }))
    render(<RecordingPlayer attemptId="a1" recording={rec({ mimeType: 'audio/mp4' })} label="Cierre" />)
    await screen.findByLabelText('Grabación: Cierre')
    expect(seekableWebm).not.toHaveBeenCalled()
    expect(withMp4Duration).toHaveBeenCalledWith(expect.anything(), 23950)
    expect(screen.getByRole('link', { name: /Descargar/ })).toHaveAttribute('download', 'grabacion-r-1.m4a')
  })

  it('shows a deleted recording without fetching it', () => {
    const f = vi.spyOn(globalThis, 'fetch')
    render(<RecordingPlayer attemptId="a1" recording={rec({ deleted: true })} />)
    expect(screen.getByText('Esta grabación fue eliminada.')).toBeInTheDocument()
    expect(f).not.toHaveBeenCalled()
    expect(document.querySelector('audio')).toBeNull()
  })

  it('treats a 404 from the server as deleted', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}', { status: 404 }))
    render(<RecordingPlayer attemptId="a1" recording={rec()} />)
    expect(await screen.findByText('Esta grabación fue eliminada.')).toBeInTheDocument()
  })

  it('reports an ended session (401) to the stale-session handler, as every API call does', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ error: { code: 'unauthenticated', message: 'Inicie sesión' } }), { status: 401 }),
    )
    const stale = vi.fn()
    const remove = setStaleSessionHandler(stale)
    render(<RecordingPlayer attemptId="a1" recording={rec()} />)
    expect(await screen.findByRole('alert')).toHaveTextContent('No se pudo cargar la grabación.')
    remove()
    expect(stale).toHaveBeenCalledOnce()
  })

  it('shows an error with a retry', async () => {
    const f = vi
      .spyOn(globalThis, 'fetch')
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('x', { status: 200, headers: { 'Content-Type': 'audio/webm' } }))
    render(<RecordingPlayer attemptId="a1" recording={rec()} label="Respuesta 1" />)
    expect(await screen.findByRole('alert')).toHaveTextContent('No se pudo cargar la grabación.')
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }))
    await screen.findByLabelText('Grabación: Respuesta 1')
    expect(f).toHaveBeenCalledTimes(2)
  })

  it('says when a recording is still uploading', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('x', { status: 200, headers: { 'Content-Type': 'audio/webm' } }))
    render(<RecordingPlayer attemptId="a1" recording={rec({ complete: false })} />)
    await screen.findByLabelText('Grabación')
    await waitFor(() => expect(screen.getByText(/aún se está subiendo/)).toBeInTheDocument())
  })

  it('formats durations as m:ss', () => {
    expect(formatClock(0)).toBe('0:00')
    expect(formatClock(61_400)).toBe('1:01')
    expect(formatClock(600_000)).toBe('10:00')
  })
})
