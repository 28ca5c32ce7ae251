import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { saveNotes } from '../api/attempt-actions'
import { initialNotes, NOTES_MAX, NOTES_TEMPLATE, readLocalNotes, writeLocalNotes } from '../lib/notes'
import { inputBase } from '@/components/ui/input'

type SaveState = 'saved' | 'saving' | 'pending' | 'offline'

const saveText: Record<SaveState, string> = {
  saved: 'Notas guardadas en el servidor.',
  saving: 'Guardando notas…',
  pending: 'Cambios sin guardar…',
  offline: 'Sin conexión: las notas se guardaron en este equipo y se enviarán al reconectar.',
}

// NotesPad is the preparation notes with an outline template; every change
// is kept in this browser at once and saved to the server a moment later.
export function NotesPad({ attemptId, serverNotes }: { attemptId: string; serverNotes: string }) {
  const id = useId()
  const [init] = useState(() => initialNotes(serverNotes, readLocalNotes(attemptId)))
  const [text, setText] = useState(init.text)
  const [state, setState] = useState<SaveState>(init.needsSave ? 'pending' : 'saved')
  const latest = useRef(text)
  const dirty = useRef(init.needsSave)
  const seq = useRef(0)

  const save = useCallback(async () => {
    if (!dirty.current) return
    const mine = ++seq.current
    const value = latest.current
    setState('saving')
    try {
      await saveNotes(attemptId, value)
      if (mine !== seq.current) return
      dirty.current = latest.current !== value
      writeLocalNotes(attemptId, value, !dirty.current)
      setState(dirty.current ? 'pending' : 'saved')
    } catch {
      if (mine === seq.current) setState('offline')
    }
  }, [attemptId])

  // Debounced save after typing; retried every 10 s and on reconnection.
  useEffect(() => {
    if (!dirty.current) return
    const t = setTimeout(() => void save(), 800)
    return () => clearTimeout(t)
  }, [text, save])

  useEffect(() => {
    if (state !== 'offline') return
    const retry = () => void save()
    const t = setInterval(retry, 10_000)
    window.addEventListener('online', retry)
    return () => {
      clearInterval(t)
      window.removeEventListener('online', retry)
    }
  }, [state, save])

  // Leaving the phase: send what is pending now.
  useEffect(() => () => void save(), [save])

  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block font-semibold text-slate-900">
        Notas de preparación
      </label>
      <p id={`${id}-help`} className="text-sm text-slate-700">
        Use la guía: introducción, hechos, problema jurídico, normas aplicables, análisis, conclusión y vía procesal.
      </p>
      <textarea
        id={id}
        aria-describedby={`${id}-help ${id}-state`}
        value={text}
        maxLength={NOTES_MAX}
        onChange={(e) => {
          latest.current = e.target.value
          dirty.current = true
          writeLocalNotes(attemptId, e.target.value, false)
          setText(e.target.value)
          setState('pending')
        }}
        rows={16}
        spellCheck
        lang="es"
        className={`block w-full ${inputBase} p-3 font-mono text-sm leading-relaxed`}
      />
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <p id={`${id}-state`} className={state === 'offline' ? 'font-semibold text-slate-900' : 'text-slate-700'} data-notes={state}>
          {saveText[state]}
        </p>
        <p className="text-slate-600">
          {text.length.toLocaleString('es-EC')} / {NOTES_MAX.toLocaleString('es-EC')}
        </p>
      </div>
    </div>
  )
}

// notesToShow returns the latest notes of an attempt (this browser's copy
// when it is newer than the server's).
export function notesToShow(attemptId: string, serverNotes: string): string {
  const local = readLocalNotes(attemptId)
  const text = local && !local.synced ? local.text : serverNotes || local?.text || ''
  return text === NOTES_TEMPLATE ? '' : text
}
