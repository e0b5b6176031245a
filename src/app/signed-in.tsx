// The signed-in app: the composition root where features meet what the app provides (the shell knows no
// feature). The session's sync engine starts here with the features' adapters, and stops with the session.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useCurrentUser } from '@/app/lib/user';
import { useListCache } from './features/attendance/list/use-list-realtime';
import { Shell } from './shell/Shell';

function useSync() {
  const client = useQueryClient();
  const { _id: userId } = useCurrentUser();
  useEffect(() => {
    // Loaded, not imported: the device's database (Dexie) and the engine come after the first screen.
    let engine: { dispose(): void } | undefined;
    let disposed = false;
    void Promise.all([import('@/app/offline/app-offline'), import('./features/attendance/data/sync')]).then(
      ([offline, attendance]) => {
        if (disposed) return;
        const started = offline.startSync(client, userId);
        started.register(attendance.attendanceSync);
        engine = started;
      },
    );
    return () => {
      disposed = true;
      engine?.dispose();
    };
  }, [client, userId]);
}

export function SignedIn() {
  useSync();
  // Atendimento's lists stay live while another screen is open (a conversation resumed in /conversas).
  useListCache();
  return <Shell />;
}
