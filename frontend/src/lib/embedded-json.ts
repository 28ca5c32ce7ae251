// embeddedJSON reads what the server wrote into index.html as a JSON script
// element (<script id=… type="application/json">, allowed by the CSP). A
// missing or unreadable element is undefined: the caller asks the API.
export function embeddedJSON<T>(id: string): T | undefined {
  const text = document.getElementById(id)?.textContent
  if (!text) return undefined
  try {
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}
