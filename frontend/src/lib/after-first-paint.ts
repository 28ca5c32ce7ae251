// afterFirstPaint runs fn once the page has painted its first content, so
// what fn fetches does not compete with what that paint needs (on a slow
// phone network, a prefetch started earlier delays the first paint by its
// own download). A browser without paint timing runs fn after the load event.
export function afterFirstPaint(fn: () => void) {
  let ran = false
  const run = () => {
    if (ran) return
    ran = true
    setTimeout(fn)
  }
  if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return
      observer.disconnect()
      run()
    }).observe({ type: 'paint', buffered: true })
    return
  }
  if (document.readyState === 'complete') run()
  else window.addEventListener('load', run, { once: true })
}
