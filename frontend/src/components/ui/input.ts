// The look of the app's text fields, in one place: every input, select and
// textarea takes inputBase (border, corners, colours) and adds only its
// size and spacing.
export const inputBase = 'rounded-lg border border-slate-400 bg-white text-slate-900'

// inputClass: a full-width field under its label, as the forms draw it; a
// field marked aria-invalid gets a red border.
export const inputClass = `mt-1 block w-full ${inputBase} px-3 py-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-700`

// focusRing: the brand-coloured focus of the sign-in and account fields.
export const focusRing = 'focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none'

// signInInputClass: the sign-in forms' fields (/login), a little taller.
export const signInInputClass = `mt-1 block w-full ${inputBase} px-3 py-2.5 shadow-sm ${focusRing}`

// accountInputClass: the account page's fields, no wider than a password needs.
export const accountInputClass = `mt-1 block w-full max-w-sm ${inputBase} px-3 py-2 ${focusRing}`
