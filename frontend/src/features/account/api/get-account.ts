import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { accountKeys, type Account } from './types'

export const getAccount = () => api.get<Account>('/api/me/account')

export const accountQueryOptions = () => queryOptions({ queryKey: accountKeys.account, queryFn: getAccount })

export function useAccount() {
  return useQuery(accountQueryOptions())
}
