// The flow editor (/flows/:flowId, spec 3 §3 Flow, §5, issue 16 §2-§3): a full-screen canvas on
// @xyflow/react with its header (back, name, trigger, export, reset, save), a palette, undo/redo, copy/paste,
// and the selected node's panel. Loaded on its own (router.tsx): nothing of it reaches /login or Atendimento.
import '@xyflow/react/dist/style.css';
import './flow-editor.css';
import { Center, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { ReactFlowProvider } from '@xyflow/react';
import { useEffect } from 'react';
import { ApiError, api } from '@/app/lib/api';
import { messages } from '@/shared/messages';
import { flowEditorLabels } from '@/shared/messages-editors';
import { FlowEditor } from './FlowEditor';

export const flowQueryKey = (id: string) => ['get-flow', { _id: id }] as const;

/** Why a flow did not open: the server's refusal (not found, another account), else the spec's text. */
const loadFailure = (err: unknown) =>
  err instanceof ApiError && err.status !== 0 && err.status < 500 ? err.message : messages.flowsLoadFailed;

export function FlowEditorPage() {
  const { flowId = '' } = useParams({ strict: false }) as { flowId?: string };
  const navigate = useNavigate();
  const flow = useQuery({
    queryKey: flowQueryKey(flowId),
    queryFn: () => api('get-flow', { _id: flowId }),
    // The editor always starts from the saved version.
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  useEffect(() => {
    if (!flow.isError) return;
    const message = loadFailure(flow.error);
    notifications.hide(message);
    notifications.show({ id: message, color: 'red', message });
    void navigate({ href: '/flows', replace: true });
  }, [flow.isError, flow.error, navigate]);

  if (!flow.data)
    return (
      <Center h="100dvh" aria-busy="true" aria-label={flowEditorLabels.loading}>
        <Loader />
      </Center>
    );
  return (
    <ReactFlowProvider key={flow.data._id}>
      <FlowEditor flow={flow.data} />
    </ReactFlowProvider>
  );
}
