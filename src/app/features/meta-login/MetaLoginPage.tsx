// /meta-login (spec 3 §2.18): 'Login com Facebook' opens Meta's embedded WhatsApp signup through Meta's
// JavaScript SDK. The result stays in the browser: nothing is sent to our server from this page. Only this
// page's own answer from the server carries the CSP that lets the SDK in (src/server/app.ts), so a visit that
// came through the app's own navigation is reloaded from the server first.
import { Alert, Button, Paper, Stack, Text } from '@mantine/core';
import { IconBrandFacebook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callQuery } from '@/app/lib/query';
import { PageHeader } from '@/app/ui/PageHeader';
import { adminMessages, adminLabels as L } from '@/shared/messages-admin';

const SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';
const PATH = '/meta-login';

interface FacebookLoginResponse {
  authResponse?: { code?: string } | null;
  status?: string;
}
interface FacebookSdk {
  init(options: { appId: string; autoLogAppEvents: boolean; xfbml: boolean; version: string }): void;
  login(callback: (response: FacebookLoginResponse) => void, options: Record<string, unknown>): void;
}
declare global {
  interface Window {
    FB?: FacebookSdk;
    fbAsyncInit?: () => void;
  }
}

/** Whether this document was loaded from the server at /meta-login (not reached by the app's navigation). */
function loadedHere() {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (!entry) return true;
  return new URL(entry.name).pathname.replace(/\/$/, '') === PATH;
}

type SdkState = 'loading' | 'ready' | 'failed';

/** Loads the SDK once and initialises it with the app's id (Meta's fbAsyncInit, then sdk.js). */
function useFacebookSdk(appId: string | null, version: string | undefined): SdkState {
  const [state, setState] = useState<SdkState>(() => (window.FB ? 'ready' : 'loading'));
  useEffect(() => {
    if (!appId || !version || window.FB) return;
    window.fbAsyncInit = () => {
      window.FB?.init({ appId, autoLogAppEvents: true, xfbml: true, version });
      setState('ready');
    };
    const script = document.createElement('script');
    script.src = SDK_URL;
    script.async = true;
    script.defer = true;
    script.crossOrigin = 'anonymous';
    script.onerror = () => setState('failed');
    document.body.appendChild(script);
  }, [appId, version]);
  return state;
}

export function MetaLoginPage() {
  const here = loadedHere();
  useEffect(() => {
    if (!here) window.location.replace(PATH);
  }, [here]);
  const config = useQuery(callQuery('get-meta-signup-config')).data;
  const configured = Boolean(config?.app_id && config.config_id);
  const sdk = useFacebookSdk(here && configured ? (config?.app_id ?? null) : null, config?.graph_version);
  const [outcome, setOutcome] = useState<'finished' | 'canceled' | null>(null);

  function launch() {
    if (!window.FB || !config?.config_id) return;
    setOutcome(null);
    window.FB.login((response) => setOutcome(response.authResponse?.code ? 'finished' : 'canceled'), {
      config_id: config.config_id,
      response_type: 'code',
      override_default_response_type: true,
      extras: { setup: {}, featureType: 'only_waba_sharing', sessionInfoVersion: '2' },
    });
  }

  return (
    <>
      <PageHeader title={L.metaLoginTitle} />
      <Paper withBorder p="lg" maw={560}>
        <Stack gap="md">
          <Text>{L.metaLoginIntro}</Text>
          {config && !configured && (
            <Alert color="yellow" role="alert">
              {adminMessages.metaLoginNotConfigured}
            </Alert>
          )}
          {sdk === 'failed' && (
            <Alert color="red" role="alert">
              {adminMessages.metaSdkFailed}
            </Alert>
          )}
          <Button
            leftSection={<IconBrandFacebook size={20} aria-hidden />}
            color="#1877F2"
            size="md"
            disabled={!configured || sdk !== 'ready'}
            loading={configured && sdk === 'loading'}
            onClick={launch}
            style={{ alignSelf: 'flex-start' }}
          >
            {L.metaLoginTitle}
          </Button>
          {outcome && (
            <Alert color={outcome === 'finished' ? 'green' : 'gray'} role="status">
              {outcome === 'finished' ? adminMessages.metaSignupFinished : adminMessages.metaSignupCanceled}
            </Alert>
          )}
          <Text fz="sm" c="dimmed">
            {L.metaLoginNothingSent}
          </Text>
        </Stack>
      </Paper>
    </>
  );
}
