// The signed-in app: the composition root where features meet what the app provides (the shell knows no
// feature). The session's sync engine starts here with the features' adapters, and stops with the session.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useCurrentUser } from '@/app/lib/user';
import { startSync } from '@/app/offline/app-offline';
import { attendanceSync } from './features/attendance/data/sync';
import { useListCache } from './features/attendance/list/use-list-realtime';
import { Shell } from './shell/Shell';

function useSync() {
  const client = useQueryClient();
  const { _id: userId } = useCurrentUser();
  useEffect(() => {
    const engine = startSync(client, userId);
    engine.register(attendanceSync);
    return () => engine.dispose();
  }, [client, userId]);
}

export function SignedIn() {
  useSync();
  // Atendimento's lists stay live while another screen is open (a conversation resumed in /conversas).
  useListCache();
  return <Shell />;
}
