// Entry of /auth-popup.html, MSAL's redirect page for the sign-in popup.
// MSAL 5 no longer reads the popup's URL from the opener (Cross-Origin-
// Opener-Policy at the identity provider cuts that link); this page sends
// the response over a BroadcastChannel to the page that opened the popup and
// closes itself. It loads only the redirect bridge, not the app.
import { broadcastResponseToMainFrame } from '@azure/msal-browser/redirect-bridge'

broadcastResponseToMainFrame().catch((err: unknown) => {
  // Opened directly, or the response was malformed: nothing to hand over.
  console.warn('Respuesta de inicio de sesión no válida', err)
  const status = document.getElementById('status')
  if (status) status.textContent = 'No hay un inicio de sesión en curso. Puede cerrar esta ventana.'
})
