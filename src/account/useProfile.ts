import { useQuery } from '@tanstack/react-query';
import { loadProfile } from '../authProvider';
import { readAuthStore } from '../session';

/** The signed-in user's profile, shown at once from the auth store and refreshed from the server. */
export function useProfile() {
  return useQuery({
    queryKey: ['pecflow', 'profile'],
    queryFn: loadProfile,
    initialData: readAuthStore().user ?? undefined,
    initialDataUpdatedAt: 0,
    staleTime: 0,
  });
}
