import { renderWithQuery } from '@/test/render'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Recording, Transcript } from '@/types/api'
import { RecordingWithTranscript } from './RecordingWithTranscript'
import { TranscriptView } from './TranscriptView'

const transcript: Transcript = {
  source: 'browser',
  language: 'es-ES',
  segments: [
    { startMs: 1200, endMs: 4000, text: 'Buenos días, señores miembros del tribunal.' },
    { startMs: 65_000, endMs: 70_000, text: 'Según el artículo 76 de la Constitución.' },
  ],
  text: '',
  updatedAt: '2026-11-20T15:00:00Z',
  updatedBy: 'e@utpl.edu.ec',
}

const wrap = (ui: ReactNode) => renderWithQuery(ui)

afterEach(() => vi.restoreAllMocks())

describe('TranscriptView', () => {
  it('shows each segment with its time; a click seeks to the segment start', async () => {
    const onSeek = vi.fn()
    wrap(<TranscriptView attemptId="a-1" recordingId="r-1" transcript={transcript} onSeek={onSeek} canEdit={false} />)
    expect(screen.getByText('Reconocimiento de voz del navegador')).toBeInTheDocument()
    expect(screen.getByText('Buenos días, señores miembros del tribunal.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Escuchar desde 1:05' }))
    expect(onSeek).toHaveBeenCalledWith(65_000)
    expect(screen.queryByRole('button', { name: /Corregir/ })).toBeNull()
  })

  it('lets a person correct it; the correction is sent with the transcript language', async () => {
    const f = vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () =>
        new Response(JSON.stringify({ ...transcript, source: 'edited' }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    )
    wrap(<TranscriptView attemptId="a 1" recordingId="r-1" transcript={transcript} onSeek={() => {}} canEdit />)
    await userEvent.click(screen.getByRole('button', { name: 'Corregir transcripción' }))
    const first = screen.getByLabelText('Segmento 1 (0:01)')
    await userEvent.clear(first)
    await userEvent.type(first, 'Buenos días, señores jueces.')
    await userEvent.clear(screen.getByLabelText('Segmento 2 (1:05)')) // emptied segments are dropped
    await userEvent.click(screen.getByRole('button', { name: 'Guardar corrección' }))

    expect(await screen.findByRole('button', { name: 'Corregir transcripción' })).toBeInTheDocument()
    const [url, init] = f.mock.calls.find(([, i]) => i?.method === 'PUT')!
    expect(url).toBe('/api/attempts/a%201/recordings/r-1/transcript')
    expect(JSON.parse(String(init!.body))).toEqual({
      language: 'es-ES',
      source: 'edited',
      segments: [{ startMs: 1200, endMs: 4000, text: 'Buenos días, señores jueces.' }],
    })
  })

  it('a correction can be cancelled without saving', async () => {
    const f = vi.spyOn(globalThis, 'fetch')
    wrap(<TranscriptView attemptId="a-1" recordingId="r-1" transcript={transcript} canEdit />)
    await userEvent.click(screen.getByRole('button', { name: 'Corregir transcripción' }))
    await userEvent.type(screen.getByLabelText('Segmento 1 (0:01)'), ' extra')
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }))
    expect(screen.getByText('Buenos días, señores miembros del tribunal.')).toBeInTheDocument()
    expect(f).not.toHaveBeenCalled()
  })

  it('without a transcript, one can be written by hand', async () => {
    const f = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        async () => new Response(JSON.stringify(transcript), { status: 200, headers: { 'Content-Type': 'application/json' } }),
      )
    wrap(<TranscriptView attemptId="a-1" recordingId="r-1" transcript={null} canEdit />)
    expect(screen.getByText('Sin transcripción.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Escribir transcripción' }))
    await userEvent.type(screen.getByLabelText('Segmento 1 (0:00)'), 'Lo que dije.')
    await userEvent.click(screen.getByRole('button', { name: 'Guardar corrección' }))
    await screen.findByRole('button', { name: 'Escribir transcripción' })
    const [, init] = f.mock.calls.find(([, i]) => i?.method === 'PUT')!
    expect(JSON.parse(String(init!.body))).toEqual({
      language: 'es-EC',
      source: 'edited',
      segments: [{ startMs: 0, endMs: 0, text: 'Lo que dije.' }],
    })
  })
})

describe('RecordingWithTranscript', () => {
  it('clicking a segment plays the recording from the segment start', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('mp4', { status: 200, headers: { 'Content-Type': 'audio/mp4' } }))
    URL.createObjectURL = vi.fn(() => 'blob:test/1')
    URL.revokeObjectURL = vi.fn()
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined)
    const recording: Recording = {
      id: 'r-1',
      phase: 1,
      mimeType: 'audio/mp4',
      chunks: 3,
      bytes: 1000,
      durationMs: 80_000,
      complete: true,
      deleted: false,
      createdAt: '2026-11-20T15:00:00Z',
      late: false,
      transcript: null,
    }
    wrap(<RecordingWithTranscript attemptId="a-1" recording={recording} transcript={transcript} label="Exposición" canEdit={false} />)
    const audio = (await screen.findByLabelText('Grabación: Exposición')) as HTMLAudioElement
    await userEvent.click(screen.getByText('Transcripción'))
    await userEvent.click(screen.getByRole('button', { name: 'Escuchar desde 1:05' }))
    expect(audio.currentTime).toBe(65)
    expect(play).toHaveBeenCalled()
  })
})
