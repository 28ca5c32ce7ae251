// Runtime configuration. The server embeds it in index.html (a JSON script
// element, allowed by the CSP). Where the page comes without it (`vite dev`,
// or Firebase Hosting serving the static index.html) it is fetched instead:
// render from useAppConfig, and decide on a press with ensureConfig, which
// waits for an answer still on its way.
import { queryOptions, useQuery, type Query, type QueryClient } from '@tanstack/react-query'
import type { AppConfig, MailConfig, MicrosoftConfig, SiteConfig } from '@/types/api'
import { api } from './api-client'
import { embeddedJSON } from './embedded-json'

export type { AppConfig, MailConfig, MicrosoftConfig, SiteConfig }

export const embeddedConfig = () => embeddedJSON<AppConfig>('app-config')

export const configQueryKey = ['config'] as const

/**
 * isUserData matches every cached answer except the public configuration:
 * what a sign-in or a sign-out must forget of the previous user.
 */
export const isUserData = (q: Query) => q.queryKey[0] !== configQueryKey[0]

export const configQueryOptions = () =>
  queryOptions({
    queryKey: configQueryKey,
    queryFn: () => api.get<AppConfig>('/api/config'),
    initialData: embeddedConfig,
    staleTime: Infinity,
  })

export function useAppConfig() {
  return useQuery(configQueryOptions())
}

/**
 * ensureConfig is how a press reads the configuration before it decides
 * something on it (is the university sign-in on, is mail on). Behind Firebase
 * Hosting the page does not carry the configuration, and a press can come
 * before GET /api/config has answered; this waits for that answer, or takes
 * the cached one, instead of reading "not there yet" as "switched off".
 * Rendering may use useAppConfig; a decision on a press uses this.
 */
export const ensureConfig = (qc: QueryClient) => qc.ensureQueryData(configQueryOptions())
