import { useEffect, useReducer, useRef } from 'react'

// useRowFocus moves the focus to a row of an editable list once the list has
// re-rendered: after "Agregar" to the new row, after "Quitar" to the row that
// took the removed one's place (else the last), so a keyboard user never
// loses the focus to the page. Give each row's field ref={(el) =>
// (refs.current[i] = el)} and call focusRow(i) with the row's index in the
// next list.
export function useRowFocus<T extends HTMLElement>() {
  const refs = useRef<(T | null)[]>([])
  const pending = useRef<number | null>(null)
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  useEffect(() => {
    if (pending.current === null) return
    refs.current[pending.current]?.focus()
    pending.current = null
  })
  const focusRow = (i: number) => {
    pending.current = i
    rerender()
  }
  return { refs, focusRow }
}
