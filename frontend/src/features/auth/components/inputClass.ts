import { focusRing, inputBase } from '@/components/ui/input'
// The look of the sign-in forms' text fields.
export const inputClass = `mt-1 block w-full ${inputBase} px-3 py-2.5 shadow-sm ${focusRing}`
