// The switch of the settings menu that turns this device's notifications on (asking the browser's
// permission) or off.
import { Switch } from '@mantine/core';
import { useEffect, useState } from 'react';
import { notifyError } from '@/app/lib/notify';
import { messages } from '@/shared/messages';
import { currentPushSubscription, disablePush, enablePush, pushSupported } from './push';

export function PushSwitch() {
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const supported = pushSupported();
  useEffect(() => {
    void currentPushSubscription().then((s) => setOn(Boolean(s) && Notification.permission === 'granted'));
  }, []);

  async function change(next: boolean) {
    setBusy(true);
    setError(null);
    try {
      if (next) {
        const failed = await enablePush();
        setError(failed);
        setOn(failed === null);
      } else {
        await disablePush();
        setOn(false);
      }
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Switch
      label={messages.pushOn}
      checked={on}
      disabled={busy || !supported}
      description={supported ? undefined : messages.pushUnsupported}
      error={error}
      onChange={(e) => void change(e.currentTarget.checked)}
    />
  );
}
